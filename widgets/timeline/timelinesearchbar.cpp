#include "timelinesearchbar.h"

#include "timelineview.h"

#include "analysis/slicesearch.h"
#include "model/trace.h"

#include "style/clearbutton.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace lanescope {

TimelineSearchBar::TimelineSearchBar(TimelineView *view, QWidget *parent)
    : QWidget(parent), m_view(view), m_edit(new QLineEdit(this)), m_regex(new QCheckBox(tr("Regex"), this)),
      m_args(new QCheckBox(tr("Args"), this)), m_status(new QLabel(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    m_edit->setPlaceholderText(tr("Search slice names (Enter: next, Shift+Enter: previous)"));
    addClearButtonWhenShown(m_edit);
    m_edit->installEventFilter(this);
    auto *prev = new QToolButton(this);
    prev->setText(tr("Previous"));
    auto *next = new QToolButton(this);
    next->setText(tr("Next"));
    auto *closeButton = new QToolButton(this);
    closeButton->setText(tr("Close"));
    m_status->setMinimumWidth(110);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_regex);
    layout->addWidget(m_args);
    layout->addWidget(m_status);
    layout->addWidget(prev);
    layout->addWidget(next);
    layout->addWidget(closeButton);

    m_timer.setSingleShot(true);
    m_timer.setInterval(kDebounceMs);
    connect(&m_timer, &QTimer::timeout, this, &TimelineSearchBar::search);
    connect(m_edit, &QLineEdit::textChanged, this, [this] { m_timer.start(); });
    connect(m_regex, &QCheckBox::toggled, this, &TimelineSearchBar::search);
    connect(m_args, &QCheckBox::toggled, this, &TimelineSearchBar::search);
    connect(prev, &QToolButton::clicked, this, [this] { m_view->stepMatch(false); });
    connect(next, &QToolButton::clicked, this, [this] { m_view->stepMatch(true); });
    connect(closeButton, &QToolButton::clicked, this, &TimelineSearchBar::close);
    connect(m_view, &TimelineView::currentMatchChanged, this, &TimelineSearchBar::updateStatus);
    connect(m_view, &TimelineView::searchRequested, this, &TimelineSearchBar::activate);
    updateStatus(-1, 0);
}

void TimelineSearchBar::activate()
{
    show();
    m_edit->setFocus();
    m_edit->selectAll();
}

void TimelineSearchBar::search()
{
    m_timer.stop();
    if (!m_view->trace()) {
        m_view->setSearchMatches({});
        return;
    }
    SliceSearch::Options options;
    options.pattern = m_edit->text();
    options.regex = m_regex->isChecked();
    options.includeArgs = m_args->isChecked();
    m_view->setSearchMatches(SliceSearch::find(*m_view->trace(), options, &m_error));
    updateStatus(m_view->currentMatch(), int(m_view->searchMatches().size()));
}

QString TimelineSearchBar::statusText() const
{
    return m_status->text();
}

void TimelineSearchBar::updateStatus(int index, int count)
{
    if (!m_error.isEmpty())
        m_status->setText(tr("Bad regex"));
    else if (m_edit->text().isEmpty())
        m_status->clear();
    else if (count == 0)
        m_status->setText(tr("No matches"));
    else if (index < 0)
        m_status->setText(count == 1 ? tr("1 match") : tr("%1 matches").arg(count));
    else
        m_status->setText(tr("%1 of %2").arg(index + 1).arg(count));
    m_status->setToolTip(m_error);
}

void TimelineSearchBar::close()
{
    m_edit->clear();
    m_timer.stop();
    m_view->setSearchMatches({});
    hide();
    m_view->setFocus();
}

bool TimelineSearchBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_edit && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (m_timer.isActive())
                search();
            m_view->stepMatch(!(key->modifiers() & Qt::ShiftModifier));
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            close();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace lanescope
