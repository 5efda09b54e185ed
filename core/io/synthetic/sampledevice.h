#pragma once
// The synthetic sample's NeuronCore (SampleFolderWriter): one execution of the program a host op
// launches, simulated engine by engine from that program's recipe (the tiles of x loaded over DMA
// queues, each step's instructions on its engine, semaphores between them, the result stored), and
// written as the device writes it: the NTFF of that execution and the NEFF of its program (instruction
// streams whose debug chain names each instruction's op, hlo_stats.json for XLA programs).
// SYNTHETIC, like everything of the sample; the host trace around it is the folder writer's.
#include "samplefolderwriter.h"

#include "util/textutil.h"

#include <cstdint>
#include <memory>
#include <string>

namespace lanescope {

class SampleDevice
{
public:
    // x: [512, 4096] bf16, the tensor every program reads.
    static constexpr int64_t kTensorBytes = int64_t(512) * 4096 * 2;

    // Simulates one execution of the program `x.op` launches, its timing jitter drawn from `rng`.
    SampleDevice(const SampleFolderWriter::Execution &x, text::SplitMix64 &rng);
    ~SampleDevice();
    SampleDevice(const SampleDevice &) = delete;
    SampleDevice &operator=(const SampleDevice &) = delete;

    // How long the execution ran on the device (ns from its first instruction's origin).
    int64_t endNs() const;
    // The NTFF of this execution (DMA descriptors draw from `rng`). Throws std::runtime_error.
    void writeNtff(text::SplitMix64 &rng, const std::string &path) const;
    // The NEFF of the program. Throws std::runtime_error.
    void writeNeff(const std::string &path) const;
    // The network name the NEFF of `x`'s program carries (header offset 220).
    static std::string networkName(const SampleFolderWriter::Execution &x);

private:
    struct State;
    SampleFolderWriter::Execution m_execution;
    std::unique_ptr<State> m_state;
};

} // namespace lanescope
