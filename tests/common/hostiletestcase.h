#pragma once
// The base of the hostile-file test classes (tst_hostilefiles, tst_hostilebinaries, tst_fuzzregressions):
// the scratch folders are set up before the first case and checked after the last, so a reader that
// writes anywhere but below m_scratch.work() fails the test. QTest runs these inherited slots.
#include "hostile.h"

#include <QObject>
#include <QTest>

namespace lanescope::test {

class HostileTestCase : public QObject
{
    Q_OBJECT

protected:
    HostileScratch m_scratch;

private slots:
    void initTestCase()
    {
        QVERIFY(m_scratch.init());
        qInfo("time bounds x%d%s", timeScale(), LANESCOPE_HOSTILE_ASAN ? " (AddressSanitizer build)" : "");
    }

    void cleanupTestCase()
    {
        const std::string why = m_scratch.finish();
        QVERIFY2(why.empty(), why.c_str());
    }
};

} // namespace lanescope::test
