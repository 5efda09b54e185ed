#include "neffinfoview.h"

#include "style/durationformat.h"
#include "util/qtext.h"

#include <QHeaderView>
#include <QLocale>

namespace lanescope {

namespace {


QString bytes(uint64_t n)
{
    return QLocale::system().formattedDataSize(qint64(n), 1, QLocale::DataSizeTraditionalFormat)
        + QStringLiteral(" (%1 B)").arg(QLocale::system().toString(qulonglong(n)));
}

QString shapeText(const std::vector<int64_t> &shape)
{
    QStringList parts;
    for (int64_t d : shape)
        parts << QString::number(d);
    return parts.isEmpty() ? QString() : QStringLiteral("[") + parts.join(QStringLiteral(", ")) + QStringLiteral("]");
}

} // namespace

NeffInfoView::NeffInfoView(QWidget *parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Field"), tr("Value")});
    setAlternatingRowColors(true);
    setUniformRowHeights(true);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
}

QTreeWidgetItem *NeffInfoView::addSection(const QString &title, const QString &summary)
{
    auto *item = new QTreeWidgetItem(this, {title, summary});
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    return item;
}

QTreeWidgetItem *NeffInfoView::addRow(QTreeWidgetItem *parent, const QString &field, const QString &value)
{
    return new QTreeWidgetItem(parent, {field, value});
}

QTreeWidgetItem *NeffInfoView::section(const QString &title) const
{
    for (int i = 0; i < topLevelItemCount(); ++i)
        if (topLevelItem(i)->text(0) == title)
            return topLevelItem(i);
    return nullptr;
}

void NeffInfoView::addHeader(const NeffInfo &info)
{
    const NeffHeader &h = info.header;
    QTreeWidgetItem *s = addSection(tr("Header"), qs(info.file));
    addRow(s, tr("File size"), bytes(info.fileSize));
    addRow(s, tr("Package version"), QString::number(h.pkgVersion));
    addRow(s, tr("NEFF version"), QStringLiteral("%1.%2").arg(h.versionMajor).arg(h.versionMinor));
    addRow(s, tr("Payload"), bytes(h.dataSize) + (info.compression == NeffPayloadCompression::Gzip ? tr(", gzip'd tar") : tr(", tar")));
    addRow(s, tr("UUID"), qs(h.uuidDashed()));
    addRow(s, tr("Hash"), qs(h.hashHex()));
    const QString md5 = info.md5 == NeffMd5Check::Ok ? tr("matches the payload")
        : info.md5 == NeffMd5Check::Mismatch          ? tr("DOES NOT match the payload (file changed or damaged)")
                                                       : tr("not checked (package version 1)");
    addRow(s, tr("MD5"), md5);
    addRow(s, tr("Network name"), qs(h.networkName));
    addRow(s, tr("Build version"), h.buildVersion.empty() ? tr("(empty)") : qs(h.buildVersion));
    addRow(s, tr("NeuronCores required"), QString::number(h.tpbCount));
    addRow(s, tr("Requested cores"), QString::number(h.requestedCoreCount));
    addRow(s, tr("Logical NeuronCore size"), QString::number(h.lncSize));
    addRow(s, tr("Feature bits"), qs(h.featureBitsHex()) + tr(" (names not public)"));

    QTreeWidgetItem *c = addSection(tr("Compiler"), qs(info.compilerVersion));
    addRow(c, tr("Version"), qs(info.compilerVersion));
    addRow(c, tr("Target"), qs(info.target) + (info.target == "sunda" ? tr(" (Trn1 / Inf2)") : info.target == "cayman" ? tr(" (Trn2)") : QString()));
    addRow(c, tr("NKI source mapping"), info.hasKernelDebugInfo ? tr("kernel_debug_info.json, %1").arg(bytes(info.kernelDebugInfoSize)) : tr("none"));
}

void NeffInfoView::addSubgraph(const NeffSubgraph &sg, const NeffSubgraphDebug *debug)
{
    QTreeWidgetItem *s = addSection(tr("Subgraph %1").arg(qs(sg.name)),
                                    tr("%n variable(s)", nullptr, int(sg.variables.size())) + QStringLiteral(", ")
                                        + tr("%n DMA queue(s)", nullptr, int(sg.dmaQueues.size())));
    QTreeWidgetItem *vars = addRow(s, tr("Variables"), QString::number(sg.variables.size()));
    for (const NeffVariable &v : sg.variables) {
        QStringList detail{qs(neffVariableKindName(v.kind))};
        if (v.hasSize)
            detail << bytes(v.size);
        if (!v.dtype.empty())
            detail << qs(v.dtype);
        if (!v.shape.empty())
            detail << shapeText(v.shape);
        addRow(vars, qs(v.name), detail.join(QStringLiteral(" · ")));
    }
    QTreeWidgetItem *queues = addRow(s, tr("DMA queues"), QString::number(sg.dmaQueues.size()));
    for (const NeffDmaQueue &q : sg.dmaQueues) {
        QStringList sems;
        for (int64_t id : q.semaphores)
            sems << QString::number(id);
        QString text = tr("%1 · owner %2 · %n block(s)", nullptr, int(q.blockCount)).arg(qs(q.type), qs(q.owner));
        if (q.readBytes || q.writeBytes)
            text += tr(" · read %1 · write %2").arg(bytes(q.readBytes), bytes(q.writeBytes));
        if (!sems.isEmpty())
            text += tr(" · semaphores %1").arg(sems.join(QStringLiteral(",")));
        addRow(queues, qs(q.name), text);
    }
    QTreeWidgetItem *engines = addRow(s, tr("Engine files"), QString::number(sg.engineFiles.size()));
    for (const NeffEngineFile &e : sg.engineFiles) {
        const QString role = e.role == NeffEngineFileRole::Descriptors ? tr("descriptors")
            : e.role == NeffEngineFileRole::Instructions             ? tr("instructions")
                                                                     : tr("debug info");
        addRow(engines, qs(e.name), QStringLiteral("%1 · %2 · %3").arg(qs(neffEngineName(e.engine)), role, bytes(e.size)));
    }
    if (!debug)
        return;
    // The instruction-to-op chain (docs/neff.md): how far each engine's instructions reach, then the
    // HLO ops by instruction count with the Python line they came from.
    const auto ops = NeffDebugInfo::instructionsPerHlo(*debug);
    QTreeWidgetItem *chain = addRow(s, tr("Ops (debug info)"),
                                    ops.empty() ? tr("%n Penguin op(s), no HLO level", nullptr, int(debug->penguin.size()))
                                                : tr("%n HLO op(s)", nullptr, int(ops.size())));
    for (const NeffEngineDebug &e : debug->engines) {
        const NeffDebugInfo::Coverage c = NeffDebugInfo::coverage(e);
        addRow(chain, qs(e.engine), tr("%1 instructions · %2 with BIR · %3 with Penguin · %4 with HLO")
                                        .arg(c.instructions).arg(c.bir).arg(c.penguin).arg(c.hlo));
    }
    for (const auto &[h, count] : ops) {
        const NeffDebugOp &op = debug->hlo[h];
        QString text = tr("%n instruction(s)", nullptr, int(count));
        if (!op.opType.empty())
            text += QStringLiteral(" · ") + qs(op.opType);
        if (!op.file.empty())
            text += QStringLiteral(" · %1:%2").arg(qs(op.file)).arg(op.line);
        addRow(chain, qs(op.name), text);
    }
}

void NeffInfoView::setInfo(const NeffInfo &info)
{
    clear();
    addHeader(info);
    for (const NeffSubgraph &sg : info.subgraphs) {
        const NeffSubgraphDebug *debug = nullptr;
        for (const NeffSubgraphDebug &d : info.debug)
            if (d.subgraph == sg.name)
                debug = &d;
        addSubgraph(sg, debug);
    }
    QTreeWidgetItem *m = addSection(tr("Members"), tr("%n file(s) in the payload", nullptr, int(info.members.size())));
    for (const NeffMember &mem : info.members)
        addRow(m, qs(mem.name), bytes(mem.size) + (mem.unsafeName ? tr(" · unsafe name (never extracted)") : QString()));
    QTreeWidgetItem *w = addSection(tr("Warnings"), info.diagnostics.empty() ? tr("none") : QString::number(info.diagnostics.total()));
    for (const Warning &warning : info.diagnostics.warnings())
        addRow(w, QString::number(warning.count), qs(warning.message));
    expandToDepth(0);
    if (QTreeWidgetItem *members = section(tr("Members")))
        members->setExpanded(false);
    for (int i = 0; i < topLevelItemCount(); ++i) {
        QTreeWidgetItem *top = topLevelItem(i);
        if (top->text(0).startsWith(tr("Subgraph")) && top->childCount() >= 2) {
            top->child(0)->setExpanded(true); // variables
            top->child(1)->setExpanded(true); // DMA queues
            for (int c = 2; c < top->childCount(); ++c)
                if (top->child(c)->text(0) == tr("Ops (debug info)"))
                    top->child(c)->setExpanded(true); // what the instructions compute
        }
    }
}

} // namespace lanescope
