// lanescope-cli neff PATH [--json]: everything NeffReader reads from a NEFF (compiled Neuron program).
#include "commands.h"

#include "io/neff/neffreader.h"
#include "util/qtext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <cstdio>

namespace lanescope::cli {

namespace {

QJsonValue num(uint64_t v)
{
    return v > uint64_t(INT64_MAX) ? QJsonValue(double(v)) : QJsonValue(qint64(v));
}

const char *compressionName(NeffPayloadCompression c)
{
    return c == NeffPayloadCompression::Gzip ? "gzip" : "tar";
}

const char *md5Name(NeffMd5Check c)
{
    switch (c) {
    case NeffMd5Check::Ok: return "ok";
    case NeffMd5Check::Mismatch: return "mismatch";
    case NeffMd5Check::NotApplicable: break;
    }
    return "not checked (pkg_version 1)";
}

const char *md5LayoutName(NeffMd5Layout l)
{
    switch (l) {
    case NeffMd5Layout::WordSwapped: return "word_swapped";
    case NeffMd5Layout::Plain: return "plain";
    case NeffMd5Layout::None: break;
    }
    return "none";
}

const char *memberTypeName(NeffMemberType t)
{
    switch (t) {
    case NeffMemberType::File: return "file";
    case NeffMemberType::Directory: return "directory";
    case NeffMemberType::Symlink: return "symlink";
    case NeffMemberType::Hardlink: return "hardlink";
    case NeffMemberType::Other: break;
    }
    return "other";
}

const char *roleName(NeffEngineFileRole r)
{
    switch (r) {
    case NeffEngineFileRole::Descriptors: return "descriptors";
    case NeffEngineFileRole::Instructions: return "instructions";
    case NeffEngineFileRole::DebugInfo: break;
    }
    return "debug_info";
}

template <typename T> QJsonArray intArray(const std::vector<T> &v)
{
    QJsonArray a;
    for (T x : v)
        a.append(qint64(x));
    return a;
}

std::string joinInts(const std::vector<int64_t> &v)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

QJsonObject headerJson(const NeffHeader &h)
{
    QJsonObject o;
    o[QStringLiteral("pkg_version")] = num(h.pkgVersion);
    o[QStringLiteral("header_size")] = num(h.headerSize);
    o[QStringLiteral("data_size")] = num(h.dataSize);
    o[QStringLiteral("version_major")] = num(h.versionMajor);
    o[QStringLiteral("version_minor")] = num(h.versionMinor);
    o[QStringLiteral("build_version")] = qs(h.buildVersion);
    o[QStringLiteral("tpb_count")] = qint64(h.tpbCount);
    o[QStringLiteral("hash")] = qs(h.hashHex());
    o[QStringLiteral("uuid")] = qs(h.uuidHex());
    o[QStringLiteral("uuid_dashed")] = qs(h.uuidDashed());
    o[QStringLiteral("network_name")] = qs(h.networkName);
    o[QStringLiteral("requested_core_count")] = qint64(h.requestedCoreCount);
    o[QStringLiteral("cores_per_node")] = qs(h.coresPerNodeHex());
    o[QStringLiteral("feature_bits")] = qs(h.featureBitsHex());
    o[QStringLiteral("lnc_size")] = qint64(h.lncSize);
    return o;
}

QJsonObject subgraphJson(const NeffSubgraph &sg)
{
    QJsonObject o;
    o[QStringLiteral("name")] = qs(sg.name);
    o[QStringLiteral("definition")] = qs(sg.definition);
    o[QStringLiteral("has_definition")] = sg.hasDefinition;
    QJsonArray vars;
    for (const NeffVariable &v : sg.variables) {
        QJsonObject vo;
        vo[QStringLiteral("name")] = qs(v.name);
        vo[QStringLiteral("kind")] = qs(neffVariableKindName(v.kind));
        vo[QStringLiteral("type")] = qs(v.type);
        vo[QStringLiteral("size")] = v.hasSize ? num(v.size) : QJsonValue();
        if (v.varId >= 0)
            vo[QStringLiteral("var_id")] = qint64(v.varId);
        if (!v.dtype.empty())
            vo[QStringLiteral("dtype")] = qs(v.dtype);
        if (!v.shape.empty())
            vo[QStringLiteral("shape")] = intArray(v.shape);
        if (!v.fileName.empty())
            vo[QStringLiteral("file_name")] = qs(v.fileName);
        vars.append(vo);
    }
    o[QStringLiteral("variables")] = vars;
    QJsonArray queues;
    for (const NeffDmaQueue &q : sg.dmaQueues) {
        QJsonObject qo;
        qo[QStringLiteral("name")] = qs(q.name);
        qo[QStringLiteral("owner")] = qs(q.owner);
        qo[QStringLiteral("type")] = qs(q.type);
        qo[QStringLiteral("fabric_path")] = qs(q.fabricPath);
        qo[QStringLiteral("num_queues")] = qint64(q.numQueues);
        qo[QStringLiteral("semaphore_set")] = intArray(q.semaphores);
        qo[QStringLiteral("dma_blocks")] = num(q.blockCount);
        qo[QStringLiteral("read_bytes")] = num(q.readBytes);
        qo[QStringLiteral("write_bytes")] = num(q.writeBytes);
        queues.append(qo);
    }
    o[QStringLiteral("dma_queues")] = queues;
    QJsonArray engines;
    for (const NeffEngineFile &f : sg.engineFiles) {
        QJsonObject fo;
        fo[QStringLiteral("file")] = qs(f.name);
        fo[QStringLiteral("engine")] = qs(neffEngineName(f.engine));
        fo[QStringLiteral("role")] = QString::fromLatin1(roleName(f.role));
        fo[QStringLiteral("size")] = num(f.size);
        if (f.role == NeffEngineFileRole::Descriptors)
            fo[QStringLiteral("dma_blocks")] = num(f.dmaBlockCount);
        engines.append(fo);
    }
    o[QStringLiteral("engines")] = engines;
    QJsonArray bins;
    for (const NeffBinFile &b : sg.binFiles) {
        QJsonObject bo;
        bo[QStringLiteral("file")] = qs(b.name);
        bo[QStringLiteral("size")] = num(b.size);
        bo[QStringLiteral("engine")] =
            b.engine == NeffEngine::Unknown ? QJsonValue() : QJsonValue(qs(neffEngineName(b.engine)));
        bins.append(bo);
    }
    o[QStringLiteral("bin_files")] = bins;
    QJsonArray blocks;
    for (const NeffDmaBlock &b : sg.dmaBlocks) {
        QJsonObject bo;
        bo[QStringLiteral("engine")] = qs(neffEngineName(b.engine));
        bo[QStringLiteral("id")] = qint64(b.id);
        bo[QStringLiteral("queue")] = qs(b.queue);
        bo[QStringLiteral("semaphore")] = qint64(b.semaphore);
        bo[QStringLiteral("comment")] = qs(b.comment);
        bo[QStringLiteral("descriptors")] = qint64(b.descriptorCount);
        bo[QStringLiteral("from")] = qs(b.from);
        bo[QStringLiteral("to")] = qs(b.to);
        bo[QStringLiteral("read_bytes")] = num(b.readBytes);
        bo[QStringLiteral("write_bytes")] = num(b.writeBytes);
        blocks.append(bo);
    }
    o[QStringLiteral("dma_blocks")] = blocks;
    o[QStringLiteral("def_version")] = qs(sg.defVersion);
    return o;
}

// Per subgraph: each engine's instructions and how many reach a BIR instruction, a Penguin op, an HLO
// op; the HLO ops by instruction count with their Python source.
QJsonArray debugJson(const NeffInfo &n)
{
    QJsonArray out;
    for (const NeffSubgraphDebug &d : n.debug) {
        QJsonArray engines;
        for (const NeffEngineDebug &e : d.engines) {
            const NeffDebugInfo::Coverage c = NeffDebugInfo::coverage(e);
            engines.append(QJsonObject{{QStringLiteral("engine"), qs(e.engine)},
                                       {QStringLiteral("instructions"), qint64(c.instructions)},
                                       {QStringLiteral("with_bir"), qint64(c.bir)},
                                       {QStringLiteral("with_penguin"), qint64(c.penguin)},
                                       {QStringLiteral("with_hlo"), qint64(c.hlo)}});
        }
        QJsonArray ops;
        for (const auto &[h, count] : NeffDebugInfo::instructionsPerHlo(d)) {
            const NeffDebugOp &op = d.hlo[h];
            ops.append(QJsonObject{{QStringLiteral("hlo"), qs(op.name)},
                                   {QStringLiteral("op_type"), qs(op.opType)},
                                   {QStringLiteral("source_file"), qs(op.file)},
                                   {QStringLiteral("source_line"), qint64(op.line)},
                                   {QStringLiteral("instructions"), qint64(count)}});
        }
        out.append(QJsonObject{{QStringLiteral("subgraph"), qs(d.subgraph)},
                               {QStringLiteral("engines"), engines},
                               {QStringLiteral("bir_instructions"), qint64(d.bir.size())},
                               {QStringLiteral("penguin_ops"), qint64(d.penguin.size())},
                               {QStringLiteral("hlo_ops"), ops}});
    }
    return out;
}

QJsonObject infoJson(const NeffInfo &n)
{
    QJsonObject o;
    o[QStringLiteral("file")] = qs(n.file);
    o[QStringLiteral("file_size")] = num(n.fileSize);
    o[QStringLiteral("header")] = headerJson(n.header);
    o[QStringLiteral("uuid")] = qs(n.header.uuidHex());
    o[QStringLiteral("payload_compression")] = QString::fromLatin1(compressionName(n.compression));
    o[QStringLiteral("tar_bytes")] = num(n.tarBytes);
    o[QStringLiteral("complete")] = n.complete;
    o[QStringLiteral("md5_ok")] =
        n.md5 == NeffMd5Check::NotApplicable ? QJsonValue() : QJsonValue(n.md5 == NeffMd5Check::Ok);
    o[QStringLiteral("md5")] = qs(n.md5Hex);
    o[QStringLiteral("md5_layout")] = QString::fromLatin1(md5LayoutName(n.md5Layout));
    o[QStringLiteral("compiler_version")] = qs(n.compilerVersion);
    o[QStringLiteral("target")] = qs(n.target);
    o[QStringLiteral("kelf_version")] = qs(n.kelfVersion);
    o[QStringLiteral("kernel_debug_info")] = n.hasKernelDebugInfo;
    if (n.hasKernelDebugInfo)
        o[QStringLiteral("kernel_debug_info_size")] = num(n.kernelDebugInfoSize);
    o[QStringLiteral("info_num_tpb")] = qint64(n.infoTpbCount);
    // hlo_stats.json (XLA NEFFs): null without one; model_flops = 2 x HloMacCount per execution
    if (n.hloStats.present) {
        QJsonObject h;
        h[QStringLiteral("hlo_mac_count")] = n.hloStats.hasMacCount() ? QJsonValue(qint64(n.hloStats.macCount)) : QJsonValue();
        h[QStringLiteral("model_flops")] = n.hloStats.hasMacCount() ? QJsonValue(n.hloStats.modelFlops()) : QJsonValue();
        h[QStringLiteral("traffic_bytes")] = n.hloStats.traffic >= 0 ? QJsonValue(qint64(n.hloStats.traffic)) : QJsonValue();
        h[QStringLiteral("arithmetic_intensity")] =
            n.hloStats.arithmeticIntensity >= 0 ? QJsonValue(n.hloStats.arithmeticIntensity) : QJsonValue();
        o[QStringLiteral("hlo_stats")] = h;
    } else {
        o[QStringLiteral("hlo_stats")] = QJsonValue();
    }
    QJsonArray members;
    for (const NeffMember &m : n.members) {
        QJsonObject mo;
        mo[QStringLiteral("name")] = qs(m.name);
        mo[QStringLiteral("size")] = num(m.size);
        if (m.type != NeffMemberType::File)
            mo[QStringLiteral("type")] = QString::fromLatin1(memberTypeName(m.type));
        if (m.unsafeName)
            mo[QStringLiteral("unsafe_name")] = true;
        members.append(mo);
    }
    o[QStringLiteral("members")] = members;
    QJsonArray sgs;
    for (const NeffSubgraph &sg : n.subgraphs)
        sgs.append(subgraphJson(sg));
    o[QStringLiteral("subgraphs")] = sgs;
    o[QStringLiteral("debug")] = debugJson(n);
    QJsonArray warnings;
    for (const Warning &w : n.diagnostics.warnings()) {
        QJsonObject wo;
        wo[QStringLiteral("message")] = qs(w.message);
        wo[QStringLiteral("count")] = num(w.count);
        if (!w.firstSeen.empty())
            wo[QStringLiteral("first_seen")] = qs(w.firstSeen);
        warnings.append(wo);
    }
    o[QStringLiteral("warnings")] = warnings;
    return o;
}

std::string sizeText(const NeffVariable &v)
{
    return v.hasSize ? formatThousands(v.size) : std::string("-");
}

void printText(const NeffInfo &n)
{
    const NeffHeader &h = n.header;
    std::printf("file:               %s (%s bytes)\n", n.file.c_str(), formatThousands(n.fileSize).c_str());
    std::printf("header:\n");
    std::printf("  pkg_version:      %llu\n", (unsigned long long)h.pkgVersion);
    std::printf("  header_size:      %llu\n", (unsigned long long)h.headerSize);
    std::printf("  data_size:        %s\n", formatThousands(h.dataSize).c_str());
    std::printf("  version:          %llu.%llu\n", (unsigned long long)h.versionMajor,
                (unsigned long long)h.versionMinor);
    std::printf("  build version:    %s\n", h.buildVersion.empty() ? "(empty)" : h.buildVersion.c_str());
    std::printf("  TPB count:        %u\n", h.tpbCount);
    std::printf("  hash:             %s\n", h.hashHex().c_str());
    std::printf("  uuid:             %s (%s)\n", h.uuidHex().c_str(), h.uuidDashed().c_str());
    std::printf("  network name:     %s\n", h.networkName.c_str());
    std::printf("  requested cores:  %u\n", h.requestedCoreCount);
    std::printf("  cores per node:   %s\n", h.coresPerNodeHex().c_str());
    std::printf("  feature bits:     %s\n", h.featureBitsHex().c_str());
    std::printf("  LNC size:         %u\n", h.lncSize);
    std::printf("payload:            %s, %s bytes of tar%s\n", compressionName(n.compression),
                formatThousands(n.tarBytes).c_str(), n.complete ? "" : " (INCOMPLETE)");
    std::printf("md5:                %s%s%s\n", md5Name(n.md5), n.md5Hex.empty() ? "" : ", computed ",
                n.md5Hex.c_str());
    std::printf("compiler version:   %s\n", n.compilerVersion.empty() ? "(unknown)" : n.compilerVersion.c_str());
    if (n.hloStats.hasMacCount())
        std::printf("hlo_stats.json:     HloMacCount %lld (model FLOPs per execution %.6g)\n", (long long)n.hloStats.macCount,
                    n.hloStats.modelFlops());
    std::printf("target:             %s\n", n.target.empty() ? "(unknown)" : n.target.c_str());
    std::printf("kelf version:       %s\n", n.kelfVersion.c_str());
    std::printf("info.json num_tpb:  %lld\n", (long long)n.infoTpbCount);
    if (n.hasKernelDebugInfo)
        std::printf("kernel debug info:  present (%s bytes)\n", formatThousands(n.kernelDebugInfoSize).c_str());
    else
        std::printf("kernel debug info:  absent\n");
    std::printf("members (%zu):\n", n.members.size());
    for (const NeffMember &m : n.members)
        std::printf("  %12s  %s%s%s\n", formatThousands(m.size).c_str(), m.name.c_str(),
                    m.type == NeffMemberType::File ? "" : (std::string(" [") + memberTypeName(m.type) + "]").c_str(),
                    m.unsafeName ? "  [UNSAFE NAME, not written]" : "");
    for (const NeffSubgraph &sg : n.subgraphs) {
        std::printf("subgraph %s (%s%s%s):\n", sg.name.c_str(), sg.definition.c_str(),
                    sg.hasDefinition ? ", version " : ", not read", sg.defVersion.c_str());
        std::printf("  variables (%zu):\n", sg.variables.size());
        for (const NeffVariable &v : sg.variables)
            std::printf("    %-40s %-7s %-13s %15s  %s%s%s\n", v.name.c_str(),
                        std::string(neffVariableKindName(v.kind)).c_str(), v.type.c_str(), sizeText(v).c_str(),
                        v.dtype.c_str(), v.shape.empty() ? "" : " ",
                        v.shape.empty() ? "" : ("[" + joinInts(v.shape) + "]").c_str());
        std::printf("  DMA queues (%zu):\n", sg.dmaQueues.size());
        for (const NeffDmaQueue &q : sg.dmaQueues)
            std::printf("    %-20s owner %-5s type %-8s semaphores [%s]  %s blocks, %s B read, %s B written\n",
                        q.name.c_str(), q.owner.c_str(), q.type.c_str(), joinInts(q.semaphores).c_str(),
                        formatThousands(q.blockCount).c_str(), formatThousands(q.readBytes).c_str(),
                        formatThousands(q.writeBytes).c_str());
        std::printf("  engine files (%zu):\n", sg.engineFiles.size());
        for (const NeffEngineFile &f : sg.engineFiles)
            std::printf("    %-7s %-12s %12s  %s\n", std::string(neffEngineName(f.engine)).c_str(), roleName(f.role),
                        formatThousands(f.size).c_str(), f.name.c_str());
        constexpr size_t kShownBlocks = 20;
        std::printf("  DMA blocks (%zu):\n", sg.dmaBlocks.size());
        for (size_t i = 0; i < sg.dmaBlocks.size() && i < kShownBlocks; ++i) {
            const NeffDmaBlock &b = sg.dmaBlocks[i];
            std::printf("    %-7s #%-5lld %-18s S[%lld] %-20s %s -> %s, %u descriptor(s), %s B read, %s B written\n",
                        std::string(neffEngineName(b.engine)).c_str(), (long long)b.id, b.queue.c_str(),
                        (long long)b.semaphore, b.comment.c_str(), b.from.c_str(), b.to.c_str(), b.descriptorCount,
                        formatThousands(b.readBytes).c_str(), formatThousands(b.writeBytes).c_str());
        }
        if (sg.dmaBlocks.size() > kShownBlocks)
            std::printf("    ... %zu more (all of them with --json)\n", sg.dmaBlocks.size() - kShownBlocks);
        std::printf("  .bin files (%zu):\n", sg.binFiles.size());
        for (const NeffBinFile &b : sg.binFiles)
            std::printf("    %-7s %12s  %s\n",
                        b.engine == NeffEngine::Unknown ? "-" : std::string(neffEngineName(b.engine)).c_str(),
                        formatThousands(b.size).c_str(), b.name.c_str());
    }
    for (const NeffSubgraphDebug &d : n.debug) {
        std::printf("debug info %s (instruction -> BIR -> Penguin -> HLO):\n", d.subgraph.c_str());
        for (const NeffEngineDebug &e : d.engines) {
            const NeffDebugInfo::Coverage c = NeffDebugInfo::coverage(e);
            std::printf("  %-10s %8llu instructions, %8llu with BIR, %8llu with Penguin, %8llu with HLO\n", e.engine.c_str(),
                        (unsigned long long)c.instructions, (unsigned long long)c.bir, (unsigned long long)c.penguin,
                        (unsigned long long)c.hlo);
        }
        for (const auto &[h, count] : NeffDebugInfo::instructionsPerHlo(d))
            std::printf("  %8llu instructions  %s%s%s\n", (unsigned long long)count, d.hlo[h].name.c_str(),
                        d.hlo[h].file.empty() ? "" : "  at ",
                        d.hlo[h].file.empty() ? "" : (d.hlo[h].file + ":" + std::to_string(d.hlo[h].line)).c_str());
    }
    if (n.diagnostics.empty()) {
        std::printf("warnings:           none\n");
    } else {
        std::printf("warnings:\n");
        for (const Warning &w : n.diagnostics.warnings())
            std::printf("  %s\n", Diagnostics::format(w).c_str());
    }
}

} // namespace

int cmdNeff(const Args &args)
{
    const auto paths = positional(args);
    for (const auto &a : args)
        if (a.size() > 1 && a[0] == '-' && a != "--json") {
            std::fprintf(stderr, "lanescope-cli neff: unknown option '%s'\nusage: lanescope-cli neff PATH [--json]\n",
                         a.c_str());
            return kExitUnreadable;
        }
    if (paths.size() != 1) {
        std::fprintf(stderr, "usage: lanescope-cli neff PATH [--json]\n");
        return kExitUnreadable;
    }
    NeffInfo info;
    try {
        info = NeffReader::read(paths[0]);
    } catch (const ImportError &e) {
        std::fprintf(stderr, "lanescope-cli: %s\n", e.what());
        return kExitUnreadable;
    } catch (const std::bad_alloc &) {
        std::fprintf(stderr, "lanescope-cli: %s: out of memory while reading\n", paths[0].c_str());
        return kExitUnreadable;
    }
    if (hasFlag(args, "--json")) {
        const QByteArray out = QJsonDocument(infoJson(info)).toJson(QJsonDocument::Indented);
        std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    } else {
        printText(info);
    }
    return kExitOk;
}

} // namespace lanescope::cli
