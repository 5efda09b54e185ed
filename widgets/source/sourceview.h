#pragma once
// The Source dock's text (issue 30): a Python file as it is on this machine, each line with the
// numbers its frames have in the trace (SourceLines: calls, CPU total, self, device time launched)
// in a gutter on the left, a bar under the chosen weight's column as long as its share of the file's
// hottest line. When the file is not here, the view lists only the lines the trace names, each with
// its function names, so the numbers are never hidden behind a missing checkout.
// Read-only; the current line is highlighted; a double-click or Enter asks to open the line
// (lineActivated). Colours follow the window palette (light or dark).
#include "analysis/sourcelines.h"

#include <QPlainTextEdit>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <vector>

namespace lanescope {

class SourceView : public QPlainTextEdit
{
    Q_OBJECT
public:
    enum class Weight { Total, Self, Device }; // the weight box's entries, in order

    explicit SourceView(QWidget *parent = nullptr);

signals:
    // A double-click, or Enter, on a row with a file line: the dock opens the editor there.
    void lineActivated(uint32_t line);

public:

    // `text` holds the file's lines (line 1 first); empty: the file is not here, list the trace's lines.
    void setSource(std::shared_ptr<const SourceFile> file, const QStringList &text);
    // No file: a message in the text area, an empty gutter.
    void showMessage(const QString &message);
    void setWeight(Weight weight);
    Weight weight() const { return m_weight; }

    const SourceFile *file() const { return m_file.get(); }
    bool showsText() const { return m_showsText; }
    // Makes the row of `line` current and scrolls it to the middle (listing: the nearest listed line
    // at or after it). False when the file has no such row.
    bool goToLine(uint32_t line);
    // The file line of the current row (0 when none).
    uint32_t currentLine() const;
    // The file line and numbers of a row (a text block); 0 / null when it has none.
    uint32_t lineOfRow(int row) const;
    const SourceLine *statsOfRow(int row) const;
    // The row with the most of the weight (the first on a tie), -1 when the file has no time.
    int hottestRow() const;
    int gutterWidth() const;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool viewportEvent(QEvent *event) override; // tooltips over a line
    void changeEvent(QEvent *event) override;   // a new palette: the gutter repaints

private:
    class Gutter;
    class Header;
    int64_t weightOf(const SourceLine &line) const;
    int headerHeight() const;
    void layoutMargins();
    void paintGutter(QPaintEvent *event);
    void paintHeader(QPaintEvent *event);
    void highlightCurrent();
    QString tooltipOf(int row) const;

    Gutter *m_gutter;
    Header *m_header;
    std::shared_ptr<const SourceFile> m_file;
    std::vector<uint32_t> m_lineOfRow;             // per text block
    std::vector<const SourceLine *> m_statsOfRow;  // per text block
    Weight m_weight = Weight::Total;
    int64_t m_max = 0; // the weight of the hottest line
    bool m_showsText = false;
};

} // namespace lanescope
