// SystemProfileJoin and its use by ProfileFolderLoader: the generated sample folder (trace.json +
// system_profile.json + 6 NEFFs, 18 NTFFs: 3 steps of 6 executions) loads with the system trace on the framework clock
// (shifted by baseTimeNanoseconds), each NTFF placed exactly at its nc_exec_running (moved to the host
// clock by the sync points) and the chain framework op -> runtime call -> hardware execution -> device
// instructions present as flows; the placement rules (identity, order) on their own.
#include "io/folder/profilefolderloader.h"
#include "io/input/inputbuffer.h"
#include "io/synthetic/samplefolderwriter.h"
#include "io/systemprofile/systemprofileimporter.h"
#include "io/systemprofile/systemprofilejoin.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace lanescope;

namespace {

const std::string *meta(const Trace &t, const std::string &key) { return t.metadata().find(key); }

Trace systemFrom(const std::string &json)
{
    InputBuffer in = InputBuffer::fromBytes(json, "system_profile.json", {});
    return SystemProfileImporter::import(in, "system_profile.json", {});
}

// One nc_exec_running per (core, start, neff) on the host clock (no sync points needed: no hardware
// clock rule applies when every core lacks them, so the device clock is the times as written).
std::string execs(const std::vector<std::tuple<int, int64_t, std::string>> &list)
{
    std::string out = "{\"trace_events\": [";
    for (size_t i = 0; i < list.size(); ++i) {
        const auto &[core, ts, neff] = list[i];
        out += (i ? ", " : "") + std::string("{\"timestamp\": ") + std::to_string(ts) +
               ", \"duration\": 10, \"name\": \"nc_exec_running\", \"group\": \"nrt-nc-00" + std::to_string(core) +
               "\", \"type\": 7, \"neff_name\": \"" + neff + "\"}";
    }
    return out + "]}";
}

} // namespace

class TestSystemProfileJoin : public QObject
{
    Q_OBJECT

private slots:
    void sampleFolderChain()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = SampleFolderWriter::write(dir.path().toStdString());
        const Trace t = ProfileFolderLoader::load(ProfileFolder::scan(root));
        const std::string rel = SampleFolderWriter::runFolder().substr(std::string(SampleFolderWriter::kFolderName).size() + 1);
        QVERIFY(meta(t, "file." + rel + "/system_profile.json"));
        QVERIFY2(meta(t, "file." + rel + "/system_profile.json")->starts_with("loaded: as 'system_profile.json (system trace"),
                 meta(t, "file." + rel + "/system_profile.json")->c_str());
        QVERIFY(meta(t, "alignment." + rel + "/system_profile.json")->starts_with("host clock: Unix-epoch ns shifted by -baseTimeNanoseconds"));

        // the framework trace's nc_exec_running (privateuse1_driver) and the system trace's one sit at
        // the same host time after both clock rules; each NTFF is placed there
        std::vector<int64_t> driver, system;
        for (uint32_t ti = 0; ti < t.tracks().size(); ++ti)
            for (const Slice &s : t.slices(TrackId(ti)))
                if (t.str(s.name) == "nc_exec_running")
                    (t.str(s.category) == "privateuse1_driver" ? driver : system).push_back(s.start);
        std::sort(driver.begin(), driver.end());
        std::sort(system.begin(), system.end());
        QCOMPARE(system.size(), size_t(18)); // 6 executions per step x 3 steps
        QCOMPARE(system, driver);
        const auto runs = SampleFolderWriter::executions();
        for (size_t k = 0; k < runs.size(); ++k) {
            const auto &x = runs[k];
            const std::string *al = meta(t, "alignment." + rel + "/" + x.ntffFile);
            QVERIFY(al);
            QVERIFY2(al->starts_with("sync points: placed at nc_exec_running ts=" + std::to_string(system[k]) + " "), al->c_str());
            QVERIFY2(al->find("NEFF hash " + x.hash) != std::string::npos, al->c_str());
            QVERIFY(meta(t, "file." + rel + "/" + x.ntffFile)->find(ProfileFolderLoader::kAlignedSuffix) == std::string::npos);
        }

        // lanes of the four kinds
        std::set<std::string> lanes;
        for (uint32_t ti = 0; ti < t.tracks().size(); ++ti)
            lanes.insert(std::string(t.str(t.tracks()[ti].name)));
        for (const char *l : {"neuron_rt · NC 0", "hardware · NC 0", "framework 4242", "mem_usage (bytes)", "cpu_util · CPU 0"})
            QVERIFY2(lanes.count(l), l);

        // the chain as flows: framework op -> runtime call -> hardware execution -> device instructions
        std::map<std::string, int> flows;
        for (const Flow &f : t.flows())
            ++flows[std::string(t.str(f.name)) + ": " + std::string(t.str(t.slice(f.from).category)) + " -> " +
                    std::string(t.str(t.slice(f.to).category))];
        int deviceInstructions = 0;
        for (const auto &[k, n] : flows)
            if (k.starts_with("device instructions: neuron_hw -> "))
                deviceInstructions += n;
        // per step: 6 executions, and 8 runtime calls (6 nrt_execute + tensor write + read); 3 steps
        QCOMPARE(deviceInstructions, 18);
        QCOMPARE(flows["parent_id: neuron_rt -> neuron_hw"], 18);
        QCOMPARE(flows["parent_id: framework -> neuron_rt"], 24);
        QCOMPARE(flows["runtime call: cpu_op -> neuron_rt"], 24); // trace.json's op -> the system trace's call
        // The placement is exact (nc_exec_running); the framework trace's nrt_execute still links each
        // device timeline (the launching op for the analysis tables), without moving it.
        QCOMPARE(flows["device execution: privateuse1_runtime -> instruction"], 18);
        for (const auto &[k, n] : flows)
            if (k.starts_with("device execution: "))
                QCOMPARE(k, std::string("device execution: privateuse1_runtime -> instruction"));
        // and each execution's slice on the executions lane is linked from the op that launched it
        QCOMPARE(flows["launched execution: cpu_op -> neff_execution"], 18);
        QCOMPARE(int(t.flows().size()), 18 + 18 + 24 + 24 + 18 + 18);
    }

    void placeByIdentityThenOrder()
    {
        const Trace sys = systemFrom(execs({{0, 100, "neff_111.neff"}, {0, 200, "neff_222.neff"}, {0, 300, "neff_111.neff"},
                                            {1, 150, "neff_333.neff"}, {0, 400, "x"}}));
        std::vector<SystemProfileJoin::Device> devices = {
            {0, {"222"}},        // identity: the event at 200
            {0, {"111"}},        // identity, first of two: 100
            {0, {"111"}},        // second: 300
            {0, {}},             // by order on core 0: the remaining one, 400
            {1, {"999"}},        // no identity match: by order on core 1, 150
            {2, {}},             // no execution on core 2: not placed
        };
        std::map<int, int64_t> at;
        for (const auto &p : SystemProfileJoin::placeDevices(sys, devices))
            at[p.device] = p.start;
        QCOMPARE(at.size(), size_t(5));
        QCOMPARE(at[0], int64_t(200));
        QCOMPARE(at[1], int64_t(100));
        QCOMPARE(at[2], int64_t(300));
        QCOMPARE(at[3], int64_t(400));
        QCOMPARE(at[4], int64_t(150));
        QVERIFY(!at.count(5));
    }

    void hostOffset()
    {
        const Trace sys = systemFrom("{\"trace_events\": [{\"timestamp\": 1700000000000000500, \"duration\": 5, \"name\": "
                                     "\"nrt_execute\", \"group\": \"nrt-nc-000\", \"type\": 11}]}");
        std::string note;
        QCOMPARE(SystemProfileJoin::hostOffset(nullptr, sys, note), int64_t(0));
        QVERIFY(note.starts_with("host clock: its own"));
    }
};

QTEST_GUILESS_MAIN(TestSystemProfileJoin)
#include "tst_systemprofilejoin.moc"
