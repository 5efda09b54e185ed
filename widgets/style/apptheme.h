#pragma once
// The window-wide light / dark palette: every dock, table, dialog and menu follows it, so a dark
// timeline never sits between light panels. Dark switches to the Fusion style (platform styles such
// as GTK may ignore an application palette); light brings back the style and palette that were in
// use before the first switch. Views that paint their own colours (timeline, charts, Summary) get
// their dark flag from the main window in the same step.
#include <QPalette>

namespace lanescope {

class AppTheme
{
public:
    static QPalette darkPalette();
    static void apply(bool dark);
    static bool isDark();
};

} // namespace lanescope
