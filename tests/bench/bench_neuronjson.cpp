// bench_neuronjson: NeuronProfileJsonReader throughput on a large neuron-profile-like JSON export.
//   bench_neuronjson [--instructions N] [--runs R] [--source FILE.json] [--stream]
// Tiles the instruction, dma and semaphore_update rows of a real export (default: the corpus file
// neuron-profile-json/profile_128x128x1024.json; rows keep all their keys, 22+ per instruction row,
// timestamps shifted per tile) until N instruction rows (default 1,000,000) are written, with the
// other tables once, into a temporary directory. Without the corpus, rows with the same keys are
// synthesized. Reads the file once, removes it, then parses it R times (default 3) from memory and
// prints the median MB/s and rows/s of the reader, and of the whole import (reader + trace build),
// and the peak resident memory of the reader. With --stream the file stays on disk and each run reads
// it as a stream (InputStream, windows on the cores: the read is included, the text is never held
// whole). Not a test.
#include "corpus.h"
#include "peakrss.h"

#include "io/input/inputbuffer.h"
#include "io/input/inputstream.h"
#include "io/neuronprofile/neuronprofilejsonimporter.h"
#include "io/neuronprofile/neuronprofilejsonreader.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace lanescope;
namespace fs = std::filesystem;
namespace sj = simdjson::ondemand;

namespace {

struct Row // the row's JSON text split around its timestamp value
{
    std::string head, tail;
    int64_t timestamp = 0;
};

struct Source
{
    std::vector<Row> instruction, dma, semaphore;
    std::string others; // the remaining top-level members, written once: "\"summary\":[...],..."
    int64_t span = 0;   // latest timestamp + 1 ms: the shift between tiles
};

Row splitRow(std::string_view raw)
{
    Row r;
    const size_t key = raw.find("\"timestamp\":");
    if (key == std::string_view::npos) {
        r.head = std::string(raw);
        return r;
    }
    size_t i = key + 12, j = i;
    while (j < raw.size() && ((raw[j] >= '0' && raw[j] <= '9') || raw[j] == '-'))
        ++j;
    r.head = std::string(raw.substr(0, i));
    r.timestamp = std::strtoll(std::string(raw.substr(i, j - i)).c_str(), nullptr, 10);
    r.tail = std::string(raw.substr(j));
    return r;
}

bool loadSource(const std::string &path, Source &src)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::stringstream ss;
    ss << in.rdbuf();
    const simdjson::padded_string json(ss.str());
    sj::parser parser;
    sj::document doc;
    sj::object top;
    if (parser.iterate(json).get(doc) || doc.get_object().get(top))
        return false;
    for (auto fr : top) {
        sj::field f;
        std::string_view key;
        if (std::move(fr).get(f) || f.unescaped_key().get(key))
            return false;
        std::vector<Row> *rows = key == "instruction"        ? &src.instruction
                                 : key == "dma"              ? &src.dma
                                 : key == "semaphore_update" ? &src.semaphore
                                                             : nullptr;
        const std::string name(key);
        sj::value v = f.value();
        if (!rows) {
            std::string_view raw;
            sj::array a;
            sj::object o;
            if (v.get_array().get(a) == simdjson::SUCCESS) {
                if (a.raw_json().get(raw))
                    return false;
            } else if (v.get_object().get(o) == simdjson::SUCCESS) {
                if (o.raw_json().get(raw))
                    return false;
            } else {
                raw = v.raw_json_token();
            }
            src.others += ",\"" + name + "\":" + std::string(raw);
            continue;
        }
        sj::array a;
        if (v.get_array().get(a))
            return false;
        for (auto er : a) {
            sj::object o;
            std::string_view raw;
            if (std::move(er).get_object().get(o) || o.raw_json().get(raw))
                return false;
            rows->push_back(splitRow(raw));
            src.span = std::max(src.span, rows->back().timestamp + 1000000);
        }
    }
    return !src.instruction.empty();
}

// Rows with the keys of the real export when no corpus file is at hand.
void synthesize(Source &src)
{
    static const char *ops[] = {"DRAIN", "EVENT_SEMAPHORE", "MATMUL", "NOP", "WRITE", "ACTIVATE"};
    static const char *engines[] = {"Tensor", "Vector", "Scalar", "GpSimd", "Sync"};
    for (int i = 0; i < 128; ++i) {
        const bool matmul = i % 6 == 2 && i % 5 == 0;
        const std::string engine = matmul ? "Tensor" : engines[i % 5];
        src.instruction.push_back(splitRow(
            R"j({"crc_in":65535,"hlo_attrs":"","activation_fn":"","bir_id":"","evt_wait_time":0,"duration":)j" +
            std::to_string(5 + i % 90) + R"j(,"penguin_id":"","fully_qualified_subgraph":"/sg00","pc":)j" +
            std::to_string(40 + i) + R"j(,"layer":"","instruction_type":"","crc_out":65535,"hlo_name":"",)j" +
            R"j("bir_instruction_name":"","timestamp":)j" + std::to_string(i * 100) + R"j(,"raw_bir_id":0,"id":)j" +
            std::to_string(7074752707989819081ull + uint64_t(i)) + R"j(,"raw_penguin_id":0,"subgroup":")j" + engine +
            R"j(","operands":"S[3]>=1 ++S[4]","label":")j" + (matmul ? "TensorMatrix" : engine) + R"j(","opcode":")j" +
            (matmul ? "MATMUL" : ops[i % 6]) + R"j("})j"));
        src.dma.push_back(splitRow(
            R"j({"transfer_rate":22608351000,"op":"copy","variable":"identity_56","transfer_size":2048,"is_cc_dma":"no",)j"
            R"j("duplicate":"no","subgroup":"qSyncSpillReload0-Q1-E)j" +
            std::to_string(i % 16) + R"j(","dma_engine":")j" + std::to_string(i % 16) +
            R"j(","crc":16906,"queue_type":"data","id":140303715310285174,"packet_idx":0,"duration":90,)j" +
            R"j("semaphore_id":"S[8] (qSyncSpillReload0)","read_size":2048,"packet_aggregation_id":4767622535416772230,)j" +
            R"j("source":[["WEIGHT"]],"dest":["SB"],"dma_queue":"1","block_id":0,"write_size":2048,"aggregated":"no",)j" +
            R"j("timestamp":)j" + std::to_string(i * 100 + 7) + "}"));
        src.semaphore.push_back(
            splitRow(R"j({"timestamp":)j" + std::to_string(i * 100 + 3) + R"j(,"value":1,"id":"2"})j"));
    }
    src.others = R"j(,"metadata":[{"ntff_version":5,"first_hw_timestamp":0,"last_hw_timestamp":0}])j";
    src.span = 128 * 100 + 1000000;
}

void writeRows(std::ofstream &out, const char *key, const std::vector<Row> &rows, uint64_t tiles, int64_t span,
               uint64_t limit, uint64_t &written)
{
    out << '"' << key << "\":[";
    std::string buf;
    for (uint64_t t = 0; t < tiles; ++t) {
        for (const Row &r : rows) {
            if (written == limit)
                break;
            if (written++)
                buf += ',';
            buf += r.head;
            if (!r.tail.empty() || r.timestamp) {
                buf += std::to_string(r.timestamp + int64_t(t) * span);
                buf += r.tail;
            }
        }
        if (buf.size() > (size_t(1) << 22)) {
            out << buf;
            buf.clear();
        }
    }
    out << buf << ']';
}

double seconds(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

int main(int argc, char **argv)
{
    uint64_t instructions = 1'000'000;
    int runs = 3;
    bool stream = false;
    std::string source =
        lanescope::test::corpusFile(QStringLiteral("neuron-profile-json/profile_128x128x1024.json")).toStdString();
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--stream"))
            stream = true;
        else if (i + 1 == argc)
            break;
        else if (!std::strcmp(argv[i], "--instructions"))
            instructions = std::max<uint64_t>(1, std::strtoull(argv[++i], nullptr, 10));
        else if (!std::strcmp(argv[i], "--runs"))
            runs = std::max(1, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--source"))
            source = argv[++i];
    }

    Source src;
    const bool tiled = !source.empty() && loadSource(source, src);
    if (!tiled) {
        src = Source{};
        synthesize(src);
    }
    const uint64_t tiles = (instructions + src.instruction.size() - 1) / src.instruction.size();

    std::error_code ec;
    const fs::path dir = fs::temp_directory_path() / ("lanescope_bench_neuronjson_" + std::to_string(::getpid()));
    fs::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "bench_neuronjson: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
        return 1;
    }
    const fs::path file = dir / "bench_profile.json";
    int rc = 0;
    try {
        const auto g0 = std::chrono::steady_clock::now();
        uint64_t nInstr = 0, nDma = 0, nSem = 0;
        {
            std::ofstream out(file, std::ios::binary);
            out << '{';
            writeRows(out, "instruction", src.instruction, tiles, src.span, instructions, nInstr);
            out << ',';
            writeRows(out, "dma", src.dma, tiles, src.span, UINT64_MAX, nDma);
            out << ',';
            writeRows(out, "semaphore_update", src.semaphore, tiles, src.span, UINT64_MAX, nSem);
            out << src.others << '}';
            if (!out.flush())
                throw std::runtime_error("cannot write " + file.string());
        }
        const double genS = seconds(g0);
        const auto r0 = std::chrono::steady_clock::now();
        lanescope::test::resetPeakRss();
        InputBuffer input = stream ? InputBuffer() : InputBuffer::read(file.string(), {});
        const double readS = seconds(r0);
        if (!stream)
            fs::remove_all(dir, ec);
        const double mb = double(stream ? fs::file_size(file) : input.size()) / 1e6;
        const std::string how = stream ? std::string("streamed from disk in every run")
                                       : "file read in " + std::to_string(readS) + " s, then removed";
        std::printf(
            "bench_neuronjson: %s %.1f MB (%llu instruction, %llu dma, %llu semaphore_update rows%s) in %.1f s; %s\n",
            tiled ? "tiled" : "synthesized", mb, (unsigned long long)nInstr, (unsigned long long)nDma,
            (unsigned long long)nSem, tiled ? (", from " + source).c_str() : "", genS, how.c_str());

        std::vector<double> readerS, importS;
        NtffProfile last;
        size_t slices = 0;
        uint64_t peak = 0;
        const LoadOptions options;
        for (int run = 0; run < runs; ++run) {
            last = NtffProfile{};
            auto t0 = std::chrono::steady_clock::now();
            if (stream) {
                InputStream in(file.string(), options);
                last = NeuronProfileJsonReader::read(in, options);
            } else {
                last = NeuronProfileJsonReader::read(input, file.string(), options);
            }
            readerS.push_back(seconds(t0));
            peak = std::max(peak, lanescope::test::peakRss());
            t0 = std::chrono::steady_clock::now();
            std::optional<InputStream> in;
            if (stream)
                in.emplace(file.string(), options);
            const Trace trace = stream ? NeuronProfileJsonImporter::importStream(*in, options)
                                       : NeuronProfileJsonImporter::import(input, file.string(), options);
            importS.push_back(seconds(t0));
            slices = trace.allSlices().size();
            std::printf("  run %d: reader %.3f s, import (reader + build) %.3f s\n", run + 1, readerS.back(),
                        importS.back());
        }
        std::sort(readerS.begin(), readerS.end());
        std::sort(importS.begin(), importS.end());
        const double rs = readerS[readerS.size() / 2], is = importS[importS.size() / 2];
        std::printf("rows read:      %llu (%zu instruction, %zu dma, %zu semaphore); %zu slices built\n",
                    (unsigned long long)last.recordsRead, last.instructions.size(), last.dma.size(),
                    last.semaphores.size(), slices);
        std::printf(
            "reader:         %.3f s median of %d: %.0f MB/s, %.2f million rows/s, %.2f million instructions/s\n", rs,
            runs, mb / rs, double(last.recordsRead) / rs / 1e6, double(last.instructions.size()) / rs / 1e6);
        std::printf("import:         %.3f s median of %d: %.0f MB/s, %.2f million rows/s\n", is, runs, mb / is,
                    double(last.recordsRead) / is / 1e6);
        std::printf("peak memory:    %.1f MB resident during the reader runs (%s), %.2f x the file\n", double(peak) / 1e6,
                    stream ? "streamed" : "file in memory", double(peak) / 1e6 / mb);
        std::printf("simdjson:       %s (On-Demand is compiled for the build's target ISA)\n",
                    simdjson::builtin_implementation()->name().c_str());
        for (const auto &w : last.diagnostics.warnings())
            std::printf("  warning: %s\n", Diagnostics::format(w).c_str());
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench_neuronjson: %s\n", e.what());
        rc = 1;
    }
    fs::remove_all(dir, ec);
    return rc;
}
