#pragma once
// The details of one slice: name, event id, category, times, track, parent and children, flows in and
// out, its predecessors and successors in the dependency graph (once one is set) and its args, as a
// two-column tree. Parent, children, flow ends, predecessors and successors are links: activating one
// (click or Enter) emits sliceActivated with the slice at the other end.
#include "model/argstore.h"
#include "model/ids.h"

#include <QTreeWidget>

#include <memory>

namespace lanescope {

class DependencyGraph;
class Trace;

class SliceDetailsView : public QTreeWidget
{
    Q_OBJECT
public:
    explicit SliceDetailsView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    // The graph of the same trace (built in the background); null hides the dependency sections.
    void setDependencyGraph(std::shared_ptr<const DependencyGraph> graph);
    // Shows the slice, or a hint when the id is invalid.
    void showSlice(SliceId id);
    SliceId slice() const { return m_slice; }

    // An arg's value as text, by type: numbers in full, strings and JSON verbatim.
    static QString formatArg(const Trace &trace, const Arg &arg);
    static constexpr int kMaxChildrenListed = 200;
    // The slice a row links to, or invalid.
    static SliceId linkOf(const QTreeWidgetItem *item);

signals:
    void sliceActivated(lanescope::SliceId id);

private:
    QTreeWidgetItem *addField(const QString &field, const QString &value, QTreeWidgetItem *parent = nullptr);
    QTreeWidgetItem *addLink(const QString &field, SliceId target, QTreeWidgetItem *parent = nullptr);
    void addChildren(SliceId id);
    void addFlows(SliceId id);
    void addDependencies(SliceId id);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const DependencyGraph> m_graph;
    SliceId m_slice;
};

} // namespace lanescope
