#include "sampleprogramops.h"

namespace lanescope::sampleprogram {

namespace {

constexpr const char *kTile = "bfloat16<128 x 4096>";
constexpr const char *kRowStat = "float32<128 x 1>";

} // namespace

bool isNki(const std::string &op) { return op == "aten::rms_norm"; }

int64_t macCount(const std::string &op)
{
    if (isNki(op))
        return -1;
    // The compiled graph's one dot: per row of x [512, 4096], x . x (4096 MACs a row).
    return op == "CompiledFunction" ? int64_t(512) * 4096 : 0;
}

std::vector<StepOp> stepOps(const std::string &op)
{
    if (op == "aten::pow")
        return {{"%power.1 = bf16[512,4096] power(%x, %two)", "aten::pow", "RMSNorm/naive/pow", kTile, 14}};
    if (op == "aten::mean")
        return {{"%reduce.1 = f32[512] reduce(%x, %zero), dimensions={1}, to_apply=%add", "aten::mean", "RMSNorm/naive/mean", kTile, 15},
                {"%divide.2 = f32[512,1] divide(%reduce.1, %n)", "aten::mean", "RMSNorm/naive/mean", kRowStat, 15}};
    if (op == "aten::rsqrt")
        return {{"%rsqrt.1 = f32[512,1] rsqrt(%add.1)", "aten::rsqrt", "RMSNorm/naive/rsqrt", kRowStat, 16}};
    if (op == "aten::mul")
        return {{"%multiply.1 = bf16[512,4096] multiply(%x, %broadcast.1)", "aten::mul", "RMSNorm/naive/mul", kTile, 17}};
    if (isNki(op)) // the kernel's lines: square, sum, rsqrt, scale
        return {{"square", "", "", kTile, 31}, {"sum", "", "", kRowStat, 32}, {"rsqrt", "", "", kRowStat, 33}, {"scale", "", "", kTile, 35}};
    // torch.compile: weights load and matmuls = the dot; then mean, rsqrt and the fused scaling
    const char *dot = "%dot.1 = f32[512] dot(%x, %x), lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0}, "
                      "rhs_contracting_dims={1}";
    return {{dot, "aten::pow", "RMSNorm/compiled/variance", kTile, 22},
            {dot, "aten::pow", "RMSNorm/compiled/variance", kTile, 22},
            {"%multiply.2 = f32[512] multiply(%dot.1, %inv_n)", "aten::mean", "RMSNorm/compiled/variance", kRowStat, 22},
            {"%rsqrt.3 = f32[512] rsqrt(%add.2)", "aten::rsqrt", "RMSNorm/compiled/normalize", kRowStat, 23},
            {"%multiply.5 = bf16[512,4096] multiply(%multiply.4, %broadcast.3)", "aten::mul", "RMSNorm/compiled/normalize", kTile, 24}};
}

} // namespace lanescope::sampleprogram
