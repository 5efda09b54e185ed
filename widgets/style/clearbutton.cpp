#include "style/clearbutton.h"

#include <QEvent>
#include <QLineEdit>
#include <QObject>

namespace lanescope {

namespace {

// Watches its line edit until the first Show event, adds the clear button then, and goes away.
class ClearButtonOnShow : public QObject
{
public:
    explicit ClearButtonOnShow(QLineEdit *edit) : QObject(edit), m_edit(edit) { edit->installEventFilter(this); }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_edit && event->type() == QEvent::Show) {
            m_edit->removeEventFilter(this);
            m_edit->setClearButtonEnabled(true);
            deleteLater();
        }
        return false;
    }

private:
    QLineEdit *m_edit;
};

} // namespace

void addClearButtonWhenShown(QLineEdit *edit)
{
    if (!edit)
        return;
    if (edit->isVisible())
        edit->setClearButtonEnabled(true);
    else
        new ClearButtonOnShow(edit); // owned by the edit
}

} // namespace lanescope
