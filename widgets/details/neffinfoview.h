#pragma once
// The NEFF panel: everything NeffReader found in a compiled program (header, compiler, subgraphs
// with variables, DMA queues and engine files, tar members, warnings) as a tree. Shows data only:
// the file is read by core (NeffReader), never here.
#include "io/neff/neffinfo.h"

#include <QTreeWidget>

namespace lanescope {

class NeffInfoView : public QTreeWidget
{
    Q_OBJECT
public:
    explicit NeffInfoView(QWidget *parent = nullptr);

    void setInfo(const NeffInfo &info);
    // The first top-level section with this title, or nullptr (tests, navigation).
    QTreeWidgetItem *section(const QString &title) const;

private:
    QTreeWidgetItem *addSection(const QString &title, const QString &summary = {});
    static QTreeWidgetItem *addRow(QTreeWidgetItem *parent, const QString &field, const QString &value);
    void addHeader(const NeffInfo &info);
    void addSubgraph(const NeffSubgraph &sg, const NeffSubgraphDebug *debug);
};

} // namespace lanescope
