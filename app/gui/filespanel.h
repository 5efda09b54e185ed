#pragma once
// The Files dock: every file of the opened profile folder and what was done with it (the trace's
// typed FileReports, the same list `lanescope-cli info` and the SQLite `files` table print).
// Double-clicking a NEFF opens it in the NEFF panel; hidden for a trace read from one file.
#include "panel.h"

namespace lanescope {

class FileListModel;

class FilesPanel : public Panel
{
    Q_OBJECT
public:
    FilesPanel(Session *session, QMainWindow *window);

    // Rows listed (0 for a single-file trace).
    int count() const;
    // Opens the file of a row on its own (a NEFF in the NEFF panel); false when it cannot be.
    bool openRow(int sourceRow);

private:
    void refresh();

    FileListModel *m_model;
    QString m_root; // the folder the listed paths are relative to
};

} // namespace lanescope
