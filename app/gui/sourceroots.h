#pragma once
// The folders the Source dock looks for a frame's file in (SourceResolver's roots), kept in the
// settings: the ones added for one trace (keyed by the path it was opened from), then the ones for
// every trace, then the trace's own folder (SourceResolver::withTraceFolder). `lanescope-cli source
// --root` takes the same folders by hand.
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace lanescope {

class SourceRoots
{
public:
    static QStringList forTrace(const QString &tracePath);
    static void setForTrace(const QString &tracePath, const QStringList &roots);
    static QStringList forAllTraces();
    static void setForAllTraces(const QStringList &roots);
    // The resolver's roots for a trace, in the order above after `first` (roots given for one run,
    // lanescope --source-root), each once.
    static std::vector<std::string> all(const QString &tracePath, const QStringList &first = {});
};

} // namespace lanescope
