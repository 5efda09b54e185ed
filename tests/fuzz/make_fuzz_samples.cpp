// Not a harness: writes the synthetic sample profile folder (core/io/synthetic/samplefolderwriter.h, the one
// `make run` opens) into the fuzz build tree, so that make_seeds.py can seed the harnesses with small
// NTFF, NEFF, system_profile.json and folder inputs (4-18 KB each) next to the real corpus files (the
// real NTFFs are 50-130 KB; small inputs let a harness run several times as many mutations). Also
// writes notes sidecars (notes/*.lanescope-notes.json, AnnotationSidecar::serialize) for fuzz_notes:
// the notes format is Lanescope's own, so the corpus has none; and rank summaries
// (summaries/rank-N.summary.json, RankSummaryJson::write) for fuzz_ranksummary, Lanescope's own too;
// and Parquet files (parquet/*.parquet, one per codec: nulls, a dictionary, several row groups and
// pages) for fuzz_parquet.
//
//   make_fuzz_samples <out dir>
#include "annotations/annotation.h"
#include "annotations/annotationsidecar.h"
#include "io/parquet/parquetfilewriter.h"
#include "io/synthetic/samplefolderwriter.h"
#include "job/ranksummaryjson.h"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

void writeNotes(const std::string &dir)
{
    using lanescope::Annotation;
    std::filesystem::create_directories(dir);
    std::vector<Annotation> notes;
    notes.push_back(Annotation::range(0, 100, "the first step"));
    notes.push_back(Annotation::point(1000, "here"));
    notes.back().color = "#1f77b4";
    Annotation event; // the shape Annotation::event gives: aten::mm at 10 ns, slice 1 (fuzz_notes' small trace)
    event.kind = Annotation::Kind::Event;
    event.text = "slow matmul \xE2\x80\x94 check the layout";
    event.startNs = event.eventStartNs = 10;
    event.endNs = 30;
    event.sliceId = 1;
    event.eventName = "aten::mm";
    notes.push_back(event);
    for (size_t i = 0; i < notes.size(); ++i)
        notes[i].id = int(i + 1);
    const auto write = [&](const std::string &name, const std::vector<Annotation> &list) {
        const std::string path = dir + "/" + name + ".lanescope-notes.json";
        std::FILE *f = std::fopen(path.c_str(), "wb");
        if (!f)
            throw std::runtime_error("cannot write " + path);
        const QByteArray bytes = lanescope::AnnotationSidecar::serialize(list, name);
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), f);
        std::fclose(f);
    };
    write("trace.json", notes);
    write("empty.json", {});
}

// Two ranks of a job of two: steps, one allreduce and one broadcast per step, a finding, a warning.
void writeSummaries(const std::string &dir)
{
    using namespace lanescope;
    std::filesystem::create_directories(dir);
    for (int64_t r = 0; r < 2; ++r) {
        RankSummary s;
        s.producer = "make_fuzz_samples";
        s.rank = r;
        s.rankSource = "distributedInfo.rank";
        s.distributedInfo = R"({"backend":"nccl","rank":)" + std::to_string(r) +
                            R"(,"world_size":2,"pg_config":[{"pg_name":"0","pg_desc":"default_pg","pg_size":2,"ranks":[0,1]}]})";
        s.file = {"/data/rank" + std::to_string(r) + ".json", "rank" + std::to_string(r) + ".json", "00-10", "chrome-json", 10};
        s.baseTimeNs = 1711964646000000000 + r * 1000;
        s.startNs = 1000;
        s.endNs = 50000;
        s.firstStepNs = 2000;
        for (int i = 0; i < 3; ++i) {
            s.steps.push_back({uint32_t(i), "ProfilerStep#" + std::to_string(4 + i), 2000 + i * 15000, 14000 + r * 500});
            for (const char *kind : {"allreduce", "broadcast"}) {
                CollectiveInstance c;
                c.rank = r;
                c.kind = kind;
                c.processGroup = "0";
                c.dtype = "Float";
                c.groupSize = 2;
                c.bytes = kind[0] == 'a' ? 4096 : 64;
                c.start = 3000 + i * 15000 + (kind[0] == 'a' ? 0 : 5000) + r * 100;
                c.duration = 900;
                c.slice = lanescope::SliceId(uint32_t(10 + s.collectives.size()));
                s.collectives.push_back(c);
                s.collectiveSteps.push_back(4 + i);
            }
        }
        Finding f;
        f.rule = "low-overlap";
        f.title = "GPU 0: little overlap";
        f.recoverableNs = 100;
        f.events = {10, 11};
        f.ranges = {{3000, 3900}};
        s.findings = {f};
        s.warnings = {{"flow end without a start", 3, "byte 12", DiagnosticSeverity::Note}};
        s.metadata = {{"schemaVersion", "1"}};
        const std::string path = dir + "/rank-" + std::to_string(r) + ".summary.json";
        std::FILE *out = std::fopen(path.c_str(), "wb");
        if (!out)
            throw std::runtime_error("cannot write " + path);
        const QByteArray bytes = RankSummaryJson::write(s);
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), out);
        std::fclose(out);
    }
}

} // namespace

// 300 rows in row groups of 128 and pages of about 512 bytes, one file per codec.
void writeParquet(const std::string &dir)
{
    using namespace lanescope::parquet;
    std::filesystem::create_directories(dir);
    const std::pair<Codec, const char *> codecs[] = {
        {Codec::Uncompressed, "none"}, {Codec::Snappy, "snappy"}, {Codec::Gzip, "gzip"}, {Codec::Zstd, "zstd"}};
    for (const auto &codec : codecs) {
        WriteOptions o;
        o.codec = codec.first;
        o.rowGroupRows = 128;
        o.pageBytes = 512;
        FileWriter w;
        std::string error;
        const std::string path = dir + "/table-" + codec.second + ".parquet";
        if (!w.open(path,
                    {{"id", ColumnType::Int64, false}, {"dur", ColumnType::Double, true}, {"engine", ColumnType::String, true},
                     {"name", ColumnType::String, false}},
                    o, {{"lanescope.table", "fuzz"}}, &error))
            throw std::runtime_error(error);
        for (int i = 0; i < 300; ++i) {
            w.column(0).addInt(int64_t(i) * 1000 - 5);
            if (i % 4 == 0)
                w.column(1).addNull();
            else
                w.column(1).addReal(i * 0.25);
            if (i % 7 == 0)
                w.column(2).addNull();
            else
                w.column(2).addText(i % 3 ? "Tensor" : "Vector");
            w.column(3).addText("op_" + std::to_string(i));
            w.endRow();
        }
        if (!w.close())
            throw std::runtime_error(w.error());
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_fuzz_samples <out dir>\n");
        return 2;
    }
    try {
        lanescope::SampleFolderWriter::Options options;
        options.variant = "torch.compile"; // one NEFF/NTFF pair: the smallest complete folder
        lanescope::SampleFolderWriter::write(argv[1], options);
        options.variant = "naive";         // four pairs with different programs
        options.folderName = "naive";
        lanescope::SampleFolderWriter::write(argv[1], options);
        writeNotes(std::string(argv[1]) + "/notes");
        writeSummaries(std::string(argv[1]) + "/summaries");
        writeParquet(std::string(argv[1]) + "/parquet");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "make_fuzz_samples: %s\n", e.what());
        return 1;
    }
    return 0;
}
