#include "flamegraphview.h"

#include "analysis/sourceframe.h"
#include "style/durationformat.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace lanescope {

namespace {

constexpr double kMinBoxPx = 0.5;

uint32_t nameHash(const std::string &name)
{
    uint32_t h = 2166136261u; // FNV-1a: stable across runs, so a frame keeps its colour
    for (unsigned char c : name)
        h = (h ^ c) * 16777619u;
    return h;
}

QString percent(double share)
{
    return QStringLiteral("%1 %").arg(100.0 * share, 0, 'f', share < 0.001 ? 3 : 1);
}

} // namespace

FlameGraphView::FlameGraphView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void FlameGraphView::setTree(std::shared_ptr<const CallTree::Result> tree, CallTree::Weight weight, std::vector<int64_t> baseline)
{
    m_tree = std::move(tree);
    m_weight = weight;
    m_baseline = std::move(baseline);
    m_message.clear();
    const size_t n = m_tree ? m_tree->nodes.size() : 0;
    if (m_baseline.size() != n)
        m_baseline.clear();
    m_order.assign(n, {});
    for (size_t i = 0; i < n; ++i) {
        std::vector<uint32_t> &o = m_order[i];
        o = m_tree->nodes[i].children;
        std::stable_sort(o.begin(), o.end(), [&](uint32_t a, uint32_t b) { return weightOf(a) > weightOf(b); });
    }
    m_zoom = 0;
    m_selected = kNoNode;
    relayout();
    updateSearch();
    update();
}

void FlameGraphView::clear(const QString &message)
{
    m_tree.reset();
    m_baseline.clear();
    m_order.clear();
    m_boxes.clear();
    m_boxOf.clear();
    m_matched.clear();
    m_message = message;
    m_zoom = 0;
    m_selected = kNoNode;
    m_rows = 0;
    setMinimumHeight(0);
    update();
}

int64_t FlameGraphView::weightOf(uint32_t node) const
{
    return std::max<int64_t>(0, m_tree->nodes[node].weight(m_weight));
}

int FlameGraphView::rowHeight() const
{
    return fontMetrics().height() + 4;
}

void FlameGraphView::setFlame(bool rootAtBottom)
{
    m_flame = rootAtBottom;
    update();
}

void FlameGraphView::setDark(bool dark)
{
    m_dark = dark;
    update();
}

void FlameGraphView::setSearch(const QString &text)
{
    m_search = text.trimmed();
    updateSearch();
    update();
}

void FlameGraphView::zoomTo(uint32_t node)
{
    if (!m_tree || node >= m_tree->nodes.size() || node == m_zoom)
        return;
    m_zoom = node;
    relayout();
    updateSearch();
    update();
    emit zoomChanged(m_zoom);
}

void FlameGraphView::zoomOut()
{
    if (m_tree && m_zoom != 0)
        zoomTo(m_tree->nodes[m_zoom].parent);
}

void FlameGraphView::resetZoom()
{
    zoomTo(0);
}

void FlameGraphView::setSelectedNode(uint32_t node)
{
    m_selected = m_tree && node < m_tree->nodes.size() ? node : kNoNode;
    update();
}

void FlameGraphView::relayout()
{
    m_boxes.clear();
    m_rows = 0;
    if (!m_tree || m_tree->nodes.empty()) {
        m_boxOf.clear();
        return;
    }
    m_boxOf.assign(m_tree->nodes.size(), -1);
    const double width = std::max(1, this->width());
    std::vector<uint32_t> chain; // the zoom root's ancestors, root first
    for (uint32_t a = m_tree->nodes[m_zoom].parent; a != kNoNode; a = m_tree->nodes[a].parent)
        chain.push_back(a);
    std::reverse(chain.begin(), chain.end());
    int row = 0;
    for (uint32_t a : chain) {
        m_boxOf[a] = int32_t(m_boxes.size());
        m_boxes.push_back(Box{a, row++, 0, width});
    }
    m_boxOf[m_zoom] = int32_t(m_boxes.size());
    m_boxes.push_back(Box{m_zoom, row, 0, width});
    // Breadth first from the zoom root: a box's children share its width by weight, heaviest first.
    for (size_t i = chain.size(); i < m_boxes.size(); ++i) {
        const Box b = m_boxes[i];
        const int64_t w = weightOf(b.node);
        if (w <= 0)
            continue;
        double x = b.x;
        for (uint32_t c : m_order[b.node]) {
            const double cw = std::min(b.x + b.width - x, b.width * double(weightOf(c)) / double(w));
            if (cw < kMinBoxPx)
                break; // heaviest first: the rest are narrower still
            m_boxOf[c] = int32_t(m_boxes.size());
            m_boxes.push_back(Box{c, b.row + 1, x, cw});
            x += cw;
        }
    }
    for (const Box &b : m_boxes)
        m_rows = std::max(m_rows, b.row + 1);
    m_maxChange = 1;
    if (!m_baseline.empty())
        for (const Box &b : m_boxes)
            m_maxChange = std::max<int64_t>(m_maxChange, std::abs(weightOf(b.node) - m_baseline[b.node]));
    setMinimumHeight(m_rows * rowHeight() + 2);
}

void FlameGraphView::updateSearch()
{
    m_searchShare = 0;
    m_searchMatches = 0;
    m_matched.clear();
    if (!m_tree || m_search.isEmpty())
        return;
    const std::string needle = m_search.toLower().toStdString();
    m_matched.assign(m_tree->nodes.size(), false);
    // Every node of the zoomed subtree (drawn or too narrow); the outermost matches add their weight.
    int64_t matched = 0;
    std::vector<std::pair<uint32_t, bool>> stack{{m_zoom, false}}; // node, an ancestor matched
    while (!stack.empty()) {
        const auto [n, under] = stack.back();
        stack.pop_back();
        std::string name = m_tree->nodes[n].name;
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        const bool hit = name.find(needle) != std::string::npos;
        if (hit) {
            m_matched[n] = true;
            ++m_searchMatches;
            if (!under)
                matched += weightOf(n);
        }
        for (uint32_t c : m_tree->nodes[n].children)
            stack.push_back({c, under || hit});
    }
    const int64_t total = weightOf(m_zoom);
    m_searchShare = total > 0 ? double(matched) / double(total) : 0;
}

QRectF FlameGraphView::boxRect(const Box &b) const
{
    const int h = rowHeight();
    const double y = m_flame ? double(height() - (b.row + 1) * h) : double(b.row * h);
    return QRectF(b.x, y, b.width, h - 1);
}

QRectF FlameGraphView::nodeRect(uint32_t node) const
{
    if (node >= m_boxOf.size() || m_boxOf[node] < 0)
        return {};
    return boxRect(m_boxes[size_t(m_boxOf[node])]);
}

uint32_t FlameGraphView::nodeAt(const QPointF &pos) const
{
    const int h = rowHeight();
    const int row = m_flame ? int((height() - pos.y()) / h) : int(pos.y() / h);
    for (const Box &b : m_boxes)
        if (b.row == row && pos.x() >= b.x && pos.x() < b.x + b.width)
            return b.node;
    return kNoNode;
}

QColor FlameGraphView::fillFor(uint32_t node) const
{
    const CallTree::Node &n = m_tree->nodes[node];
    const bool dim = !m_matched.empty() && !m_matched[node];
    QColor c;
    if (!m_baseline.empty()) {
        const int64_t change = weightOf(node) - m_baseline[node];
        const double r = std::clamp(double(change) / double(m_maxChange), -1.0, 1.0);
        const QColor base = m_dark ? QColor(70, 70, 74) : QColor(245, 245, 245);
        const QColor towards = r >= 0 ? QColor(220, 40, 40) : QColor(40, 90, 220);
        const double a = std::sqrt(std::abs(r)); // small changes stay visible
        c = QColor::fromRgbF(float(base.redF() + (towards.redF() - base.redF()) * a), float(base.greenF() + (towards.greenF() - base.greenF()) * a),
                             float(base.blueF() + (towards.blueF() - base.blueF()) * a));
    } else if (node == 0 || n.track.isValid()) {
        c = m_dark ? QColor(90, 90, 96) : QColor(200, 200, 204);
    } else {
        const uint32_t h = nameHash(n.name);
        const bool device = m_weight == CallTree::Weight::Device;
        // Python frames yellow, ops and runtime calls orange to red (flamegraph.pl's "hot"); device aqua.
        int hue = SourceFrame::parse(n.name).has_value() ? 38 + int(h % 16) : int(h % 28);
        if (device)
            hue = 175 + int(h % 30);
        c = QColor::fromHsv(hue, 150 + int((h >> 8) % 60), m_dark ? 185 + int((h >> 16) % 40) : 215 + int((h >> 16) % 40));
    }
    if (dim)
        c = m_dark ? c.darker(260) : QColor::fromHsv(c.hsvHue(), c.hsvSaturation() / 5, 235);
    return c;
}

void FlameGraphView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void FlameGraphView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    const QColor background = m_dark ? QColor(30, 30, 33) : QColor(255, 255, 255);
    const QColor text = m_dark ? QColor(230, 230, 230) : QColor(20, 20, 20);
    p.fillRect(rect(), background);
    if (!m_tree) {
        p.setPen(m_dark ? QColor(170, 170, 170) : QColor(110, 110, 110));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const QRectF dirty = event->rect();
    const QFontMetrics fm = fontMetrics();
    for (const Box &b : m_boxes) {
        const QRectF r = boxRect(b);
        if (!r.intersects(dirty))
            continue;
        p.fillRect(r, fillFor(b.node));
        if (r.width() >= 3) {
            p.setPen(background);
            p.drawLine(r.topRight(), r.bottomRight());
        }
        if (r.width() > fm.averageCharWidth() * 3) {
            const QRectF t = r.adjusted(3, 0, -3, 0);
            const QString name = QString::fromStdString(m_tree->nodes[b.node].name);
            p.setPen(!m_matched.empty() && !m_matched[b.node] ? (m_dark ? QColor(140, 140, 140) : QColor(150, 150, 150)) : text);
            p.drawText(t, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(name, Qt::ElideRight, int(t.width())));
        }
    }
    if (m_selected != kNoNode) {
        const QRectF r = nodeRect(m_selected);
        if (!r.isEmpty()) {
            p.setPen(QPen(m_dark ? QColor(255, 255, 255) : QColor(0, 0, 0), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -1, -1));
        }
    }
}

QString FlameGraphView::tooltipText(uint32_t node) const
{
    if (!m_tree || node >= m_tree->nodes.size())
        return {};
    const CallTree::Node &n = m_tree->nodes[node];
    const int64_t w = weightOf(node), view = weightOf(m_zoom), all = weightOf(0);
    QString s = QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(n.name).toHtmlEscaped());
    s += tr("%1 of the view, %2 of all").arg(percent(view > 0 ? double(w) / double(view) : 0), percent(all > 0 ? double(w) / double(all) : 0));
    s += QStringLiteral("<table>");
    auto row = [&](const QString &k, const QString &v) { s += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2</td></tr>").arg(k, v); };
    if (n.calls)
        row(tr("Calls"), QString::number(n.calls));
    row(tr("Total CPU"), DurationFormat::format(n.total));
    row(tr("Self"), DurationFormat::format(n.self));
    row(tr("Device launched"), DurationFormat::format(n.device));
    if (!m_baseline.empty()) {
        const int64_t before = m_baseline[node], change = w - before;
        row(tr("A (before)"), DurationFormat::format(before));
        row(tr("B (after)"), DurationFormat::format(w));
        row(tr("Change"), (change >= 0 ? QStringLiteral("+") : QStringLiteral("-")) + DurationFormat::format(std::abs(change)) +
                              (before > 0 ? QStringLiteral(" (%1%2 %)").arg(change >= 0 ? QStringLiteral("+") : QString()).arg(100.0 * double(change) / double(before), 0, 'f', 1)
                                          : QStringLiteral(" (new)")));
    }
    s += QStringLiteral("</table>");
    return s;
}

void FlameGraphView::mouseMoveEvent(QMouseEvent *event)
{
    const uint32_t node = nodeAt(event->position());
    if (node == kNoNode)
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tooltipText(node), this);
}

void FlameGraphView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const uint32_t node = nodeAt(event->position());
    if (node == kNoNode)
        return;
    setSelectedNode(node);
    emit nodeClicked(node);
}

void FlameGraphView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const uint32_t node = nodeAt(event->position());
    if (node != kNoNode)
        zoomTo(node);
}

void FlameGraphView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Backspace: zoomOut(); return;
    case Qt::Key_Home: resetZoom(); return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_selected != kNoNode)
            zoomTo(m_selected);
        return;
    default: QWidget::keyPressEvent(event);
    }
}

} // namespace lanescope
