#pragma once
// The details of one slice: name, event id, category, times, track, parent and children, flows in and
// out, its predecessors and successors in the dependency graph (once one is set) and its args, as a
// two-column tree. A slice of a NeuronCore's "layers" / "HLO ops" lane lists its instructions: per
// engine count, instruction time and active time (OpBreakdown), then each instruction as a link. A
// NeuronCore instruction, once the graph is set, shows its wait upstream (WaitTrace): which engine sat
// idle waiting, how long, on which semaphore and released by what, with each step as a link. Parent, children, flow ends, predecessors and successors are links: activating one
// (click or Enter) emits sliceActivated with the slice at the other end.
// The Field column fits its text up to kMaxFieldFraction of the width and is the user's to drag after
// that; Value takes the rest, so it never runs past the dock (a narrow dock at 1366x768 included).
// Long values wrap at spaces; a word wider than the column is elided in the middle; the full text is
// the tooltip, and Copy (Ctrl+C, the context menu)
// copies full values: one selected row its value alone, several rows "field<TAB>value" lines.
#include "model/argstore.h"
#include "model/ids.h"

#include <QTreeWidget>

class QAction;

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

    static constexpr double kMaxFieldFraction = 0.4;
    // The width the view asks for (the Details dock's first-run width, DockLayout): its field names
    // and kValueChars characters of value, as much as "123.456789 ms after trace start" or a short
    // track path needs; longer values wrap at spaces (a track path at its " / ") and elide in the
    // middle only where a word is wider than the column (the tooltip has the full text).
    static constexpr int kValueChars = 52;
    QSize sizeHint() const override;
    // What Copy puts on the clipboard for the selected rows (full, never elided text).
    QString copyText() const;
    QAction *copyAction() const { return m_copy; }

signals:
    void sliceActivated(lanescope::SliceId id);

protected:
    void changeEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // Field column: its contents' width, at most kMaxFieldFraction of the viewport, until the user drags it.
    void fitFieldColumn();
    void applyLinkColour();
    QTreeWidgetItem *addField(const QString &field, const QString &value, QTreeWidgetItem *parent = nullptr);
    QTreeWidgetItem *addLink(const QString &field, SliceId target, QTreeWidgetItem *parent = nullptr);
    void addChildren(SliceId id);
    void addInstructions(SliceId id);
    void addWaitTrace(SliceId id);
    void addFlows(SliceId id);
    void addDependencies(SliceId id);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const DependencyGraph> m_graph;
    SliceId m_slice;
    QAction *m_copy;
    bool m_fitting = false;        // fitFieldColumn is resizing: not the user
    bool m_userSizedField = false; // the user dragged the Field column: keep their width
};

} // namespace lanescope
