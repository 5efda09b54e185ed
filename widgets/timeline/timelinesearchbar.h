#pragma once
// The timeline's search bar (/ or Ctrl+F): a pattern matched against slice names (substring or
// regular expression, optionally args too), the match count, Enter / Shift+Enter to step through
// the matches in time order. Matches are outlined in the TimelineView.
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace lanescope {

class TimelineView;

class TimelineSearchBar : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 150;

    explicit TimelineSearchBar(TimelineView *view, QWidget *parent = nullptr);

    // Shows the bar and focuses the pattern.
    void activate();
    // Runs the search now (the typing timer does it otherwise).
    void search();
    QLineEdit *lineEdit() const { return m_edit; }
    QCheckBox *regexBox() const { return m_regex; }
    QCheckBox *argsBox() const { return m_args; }
    QString statusText() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void updateStatus(int index, int count);
    void close();

    TimelineView *m_view;
    QLineEdit *m_edit;
    QCheckBox *m_regex;
    QCheckBox *m_args;
    QLabel *m_status;
    QTimer m_timer;
    QString m_error;
};

} // namespace lanescope
