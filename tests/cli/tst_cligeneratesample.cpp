// `lanescope-cli generate-sample --folder DIR --layout native`, run as a user would: it writes the native
// PyTorch capture's layout (profile_output/<instance>_pid_<pid>/<timestamp>/ with trace.json,
// neff_<H>_vnc_0.neff, profile_nc_0_session_<S>.ntff and the runtime's four .pb files), and `info --json`
// of the top folder lists every NTFF paired with the NEFF by uuid and placed at its nc_exec_running by
// ntrace.pb's sync points, the .pb files read; the default layout stays as it was; bad --layout values are
// usage errors.
#include "clirun.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using lanescope::test::runCli;

class TestCliGenerateSample : public QObject
{
    Q_OBJECT

private slots:
    void nativeLayout()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto w = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path(), QStringLiteral("--layout"),
                               QStringLiteral("native")});
        QVERIFY2(w.exitCode == 0, w.err.constData());
        QVERIFY2(w.out.contains("native PyTorch capture layout"), w.out.constData());
        const QString top = dir.filePath(QStringLiteral("profile_output"));
        const QString run = top + QStringLiteral("/i-0synthetic0000000_pid_4242/20250101_000000/");
        QVERIFY(QFileInfo::exists(run + QStringLiteral("trace.json")));
        QVERIFY(!QFileInfo::exists(run + QStringLiteral("system_profile.json")));
        const QStringList neffs = QDir(run).entryList({QStringLiteral("neff_*_vnc_0.neff")}, QDir::Files);
        QCOMPARE(neffs.size(), 1);
        for (int s = 0; s < 3; ++s)
            QVERIFY(QFileInfo::exists(run + QStringLiteral("profile_nc_0_session_%1.ntff").arg(s)));

        const auto info = runCli({QStringLiteral("info"), top, QStringLiteral("--json"), QStringLiteral("--no-cache")});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(info.out).object();
        int ntffs = 0, pbs = 0;
        for (const auto &v : o[QStringLiteral("files")].toArray()) {
            const QJsonObject f = v.toObject();
            const QString path = f[QStringLiteral("path")].toString(), detail = f[QStringLiteral("detail")].toString();
            if (path.endsWith(QStringLiteral(".ntff"))) {
                ++ntffs;
                QCOMPARE(f[QStringLiteral("status")].toString(), QStringLiteral("paired"));
                QVERIFY2(detail.startsWith(QStringLiteral("paired with ") + neffs.front() + QStringLiteral(" by uuid")), qPrintable(detail));
                QVERIFY2(!detail.contains(QStringLiteral("(aligned approx.)")), qPrintable(detail));
                const QString al = o[QStringLiteral("metadata")].toObject()[QStringLiteral("alignment.") + path].toString();
                QVERIFY2(al.startsWith(QStringLiteral("sync points: placed at nc_exec_running ts=")), qPrintable(path + QStringLiteral(": ") + al));
            } else if (path.endsWith(QStringLiteral(".pb"))) {
                ++pbs; // the runtime's system trace, read with its session files
                QCOMPARE(f[QStringLiteral("kind")].toString(),
                         path.endsWith(QStringLiteral("/ntrace.pb")) ? QStringLiteral("neuron-ntrace") : QStringLiteral("neuron-protobuf"));
                QCOMPARE(f[QStringLiteral("status")].toString(), QStringLiteral("loaded"));
            }
        }
        QCOMPARE(ntffs, 3);
        QCOMPARE(pbs, 4);
    }

    void defaultLayoutUnchanged()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QCOMPARE(runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path()}).exitCode, 0);
        const QString run = dir.filePath(QStringLiteral("synthetic_rmsnorm_profile/i-0synthetic0000000_pid_4242/20250101_000000/"));
        QVERIFY(QFileInfo::exists(run + QStringLiteral("system_profile.json")));
        QCOMPARE(QDir(run).entryList({QStringLiteral("*_instid_*_vnc_0.ntff")}, QDir::Files).size(), 18);
        QVERIFY(QDir(run).entryList({QStringLiteral("*.pb")}, QDir::Files).isEmpty());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("profile_output"))));
    }

    void badLayoutArguments()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto unknown = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path(), QStringLiteral("--layout"),
                                     QStringLiteral("flat")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("--layout needs native"), unknown.err.constData());
        const auto naive = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path(), QStringLiteral("--layout"),
                                   QStringLiteral("native"), QStringLiteral("--variant"), QStringLiteral("naive")});
        QCOMPARE(naive.exitCode, 2);
        QVERIFY2(naive.err.contains("one NTFF per session"), naive.err.constData());
        const auto both = runCli({QStringLiteral("generate-sample"), QStringLiteral("--folder"), dir.path(), QStringLiteral("--layout"),
                                  QStringLiteral("native"), QStringLiteral("--compare-set")});
        QCOMPARE(both.exitCode, 2);
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliGenerateSample)
#include "tst_cligeneratesample.moc"
