#pragma once
// The details of one slice: name, category, times, track and its args, as a two-column tree.
#include "model/argstore.h"
#include "model/ids.h"

#include <QTreeWidget>

#include <memory>

namespace lanescope {

class Trace;

class SliceDetailsView : public QTreeWidget
{
    Q_OBJECT
public:
    explicit SliceDetailsView(QWidget *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    // Shows the slice, or a hint when the id is invalid.
    void showSlice(SliceId id);
    SliceId slice() const { return m_slice; }

    // An arg's value as text, by type: numbers in full, strings and JSON verbatim.
    static QString formatArg(const Trace &trace, const Arg &arg);

private:
    QTreeWidgetItem *addField(const QString &field, const QString &value, QTreeWidgetItem *parent = nullptr);

    std::shared_ptr<const Trace> m_trace;
    SliceId m_slice;
};

} // namespace lanescope
