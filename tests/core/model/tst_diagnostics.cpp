// Diagnostics (core/model/diagnostics.h): counted warnings and notes, merged with their severity.
#include "model/diagnostics.h"

#include <QtTest>

using namespace lanescope;

class TstDiagnostics : public QObject
{
    Q_OBJECT
private slots:
    void warningsAndNotesAreCountedApart()
    {
        Diagnostics d;
        QVERIFY(!d.hasWarnings());
        d.note("events before the trace window (skipped)", "byte 4096", 30);
        QVERIFY(!d.hasWarnings());
        QVERIFY(!d.empty());
        d.warn("flow ends without a start", "byte 12", 8928);
        d.warn("flow ends without a start", "byte 99", 2); // the first place stays
        d.note("events before the trace window (skipped)", "byte 1", 3);
        QCOMPARE(d.warnings().size(), size_t(2));
        QCOMPARE(d.total(), uint64_t(30 + 3 + 8928 + 2));
        QCOMPARE(d.total(DiagnosticSeverity::Warning), uint64_t(8930));
        QCOMPARE(d.total(DiagnosticSeverity::Note), uint64_t(33));
        QVERIFY(d.hasWarnings());
        const Warning &note = d.warnings()[0];
        QVERIFY(note.isNote());
        QCOMPARE(note.firstSeen, std::string("byte 4096"));
        QCOMPARE(Diagnostics::format(note), std::string("33 x events before the trace window (skipped) (first at byte 4096)"));
        QCOMPARE(Diagnostics::format(d.warnings()[1]), std::string("8,930 x flow ends without a start (first at byte 12)"));
        QCOMPARE(std::string(Diagnostics::severityName(DiagnosticSeverity::Note)), std::string("note"));
        QCOMPARE(std::string(Diagnostics::severityName(DiagnosticSeverity::Warning)), std::string("warning"));
    }

    void mergeKeepsSeverity()
    {
        Diagnostics a, b;
        a.warn("X events without dur (drawn with zero length)", "byte 7");
        b.note("instructions outside the current program, from a previous execution (skipped)", "byte 160", 12);
        b.warn("X events without dur (drawn with zero length)", "byte 70", 4);
        a.merge(b);
        QCOMPARE(a.warnings().size(), size_t(2));
        QCOMPARE(a.total(DiagnosticSeverity::Warning), uint64_t(5));
        QCOMPARE(a.total(DiagnosticSeverity::Note), uint64_t(12));
        QVERIFY(a.warnings()[1].isNote());
        QCOMPARE(a.count("instructions outside the current program, from a previous execution (skipped)"), uint64_t(12));
    }

    void reportWithSeverity()
    {
        Diagnostics d;
        d.report(DiagnosticSeverity::Note, "throttle rows before the trace window (skipped)", {}, 2);
        d.report(DiagnosticSeverity::Warning, "records with a timestamp out of range (skipped)", "byte 320", 1);
        QCOMPARE(d.total(DiagnosticSeverity::Note), uint64_t(2));
        QCOMPARE(d.total(DiagnosticSeverity::Warning), uint64_t(1));
        QVERIFY(d.warnings()[0].firstSeen.empty());
    }
};

QTEST_GUILESS_MAIN(TstDiagnostics)
#include "tst_diagnostics.moc"
