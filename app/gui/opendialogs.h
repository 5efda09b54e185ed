#pragma once
// The file dialogs that open profiles (File > Open, Open Folder, Compare With), in one place: they
// start in the folder of the last one opened (remembered in the settings) and hand what was chosen
// to the Session.
class QWidget;

namespace lanescope {

class Session;

namespace OpenDialogs {

// One file opens; several open as a rank set or a comparison (Session::openPaths).
void openFiles(QWidget *parent, Session *session);
void openFolder(QWidget *parent, Session *session);
// One file compares with the profile on screen; several (or nothing on screen) open compared.
void compare(QWidget *parent, Session *session);

} // namespace OpenDialogs
} // namespace lanescope
