#pragma once
// A painted flame graph over a CallTree::Result (core): one box per node, as wide as its weight
// (CallTree::Weight: total CPU time or device time launched), children left-heavy (heaviest first)
// beneath their parent in an icicle (root on top, the default) or above it in a flame (root at the
// bottom). Double-click (or Enter on the selection) zooms into a node: it takes the whole width and
// its ancestors stay as full-width bars; Backspace goes one level back out, Home to the root. A
// search dims the boxes whose name does not contain the text and sums what matched. Hover shows a
// node's numbers; a click selects it and emits nodeClicked. With a baseline (the differential flame
// graph) each box is coloured by the change from the baseline's weight at the same path: red grew,
// blue shrank, the stronger the larger the change against the largest one in sight.
// Boxes narrower than half a pixel are not drawn (their time is in their parent's box).
#include "analysis/calltree.h"

#include <QColor>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

namespace lanescope {

class FlameGraphView : public QWidget
{
    Q_OBJECT
public:
    static constexpr uint32_t kNoNode = UINT32_MAX;

    explicit FlameGraphView(QWidget *parent = nullptr);

    // `baseline`: empty, or per node of `tree` the weight it is compared to (the differential graph).
    void setTree(std::shared_ptr<const CallTree::Result> tree, CallTree::Weight weight, std::vector<int64_t> baseline = {});
    // No tree: `message` in the middle instead ("Computing...", "No call stacks in this trace").
    void clear(const QString &message);
    const CallTree::Result *tree() const { return m_tree.get(); }
    CallTree::Weight weight() const { return m_weight; }
    bool isDifferential() const { return !m_baseline.empty(); }

    void setFlame(bool rootAtBottom);
    bool isFlame() const { return m_flame; }
    // Case-insensitive substring; empty: no search.
    void setSearch(const QString &text);
    // The weight share of the zoomed subtree that the matched boxes hold (outermost matches only), 0..1.
    double searchShare() const { return m_searchShare; }
    int searchMatches() const { return m_searchMatches; }
    void setDark(bool dark);

    void zoomTo(uint32_t node);
    void zoomOut(); // one level up
    void resetZoom();
    uint32_t zoomRoot() const { return m_zoom; }
    uint32_t selectedNode() const { return m_selected; }
    void setSelectedNode(uint32_t node);

    // Where a node is drawn (empty when it is not), and the node under a point: for tests and tooltips.
    QRectF nodeRect(uint32_t node) const;
    uint32_t nodeAt(const QPointF &pos) const;
    QString tooltipText(uint32_t node) const;
    int rowHeight() const;

    QSize sizeHint() const override { return {640, 240}; }
    QSize minimumSizeHint() const override { return {200, 60}; }

signals:
    void nodeClicked(uint32_t node);
    void zoomChanged(uint32_t root);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override; // lays the boxes out again
    // Hover: the tooltip; press: select and emit; double-click: zoom.
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    // Backspace, Home, Enter (see the class comment).
    void keyPressEvent(QKeyEvent *event) override;

private:
    struct Box
    {
        uint32_t node;
        int row;
        double x, width;
    };
    int64_t weightOf(uint32_t node) const;
    void relayout();
    void updateSearch();
    QColor fillFor(uint32_t node) const;
    QRectF boxRect(const Box &b) const;

    std::shared_ptr<const CallTree::Result> m_tree;
    CallTree::Weight m_weight = CallTree::Weight::Cpu;
    std::vector<int64_t> m_baseline;
    std::vector<std::vector<uint32_t>> m_order; // children by the shown weight, heaviest first
    std::vector<Box> m_boxes;                   // as laid out, parents before children
    std::vector<int32_t> m_boxOf;               // node -> index in m_boxes, -1 not drawn
    std::vector<bool> m_matched;
    QString m_message;
    QString m_search;
    double m_searchShare = 0;
    int m_searchMatches = 0;
    int64_t m_maxChange = 1; // the largest |change| in sight (differential colours)
    int m_rows = 0;
    uint32_t m_zoom = 0;
    uint32_t m_selected = kNoNode;
    bool m_flame = false;
    bool m_dark = false;
};

} // namespace lanescope
