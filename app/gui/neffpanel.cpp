#include "neffpanel.h"

#include "session.h"

#include "details/neffinfoview.h"

#include <QMainWindow>

namespace lanescope {

NeffPanel::NeffPanel(Session *session, QMainWindow *window)
    : Panel(tr("NEFF"), QStringLiteral("neffDock"), session, window), m_view(new NeffInfoView(this))
{
    setWidget(m_view);
}

void NeffPanel::showNeff(const QString &path, const NeffInfo &info)
{
    m_view->setInfo(info);
    setWindowTitle(tr("NEFF · %1").arg(Session::displayName(path)));
    show();
    raise();
    mainWindow()->resizeDocks({this}, {640}, Qt::Horizontal);
}

} // namespace lanescope
