#pragma once
// A line edit's clear button, added when the edit is first shown rather than when it is made. The
// button's icon comes from the icon theme, and the first theme lookup of a process reads the theme's
// index files (about a millisecond); the window makes its search bar and the line edits of docks most
// sessions never open while it is built, before its first frame.
class QLineEdit;

namespace lanescope {

void addClearButtonWhenShown(QLineEdit *edit);

} // namespace lanescope
