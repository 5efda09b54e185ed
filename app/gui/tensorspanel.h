#pragma once
// The Tensors dock of a Neuron device profile: the Tensors tab (TensorTable: every tensor of the NEFF
// with type, format, shape, size, the DMAs that moved it and neuron-profile's load-to-SBUF numbers;
// activating a row makes its DMA packets and transfers the timeline's search matches) and the Memory
// tab (MemoryReport: static memory by usage type, HBM / SBUF / PSUM traffic with spill reload / save,
// MBU, and the usage / throughput counters whose lanes the timeline draws). The same numbers as
// `lanescope-cli tensors` and `memory`. Computed on a worker thread while the dock is seen; shown for
// traces that have tensors or memory numbers, hidden otherwise.
#include "computeddock.h"

#include "analysis/memoryreport.h"
#include "analysis/tensortable.h"

class QLabel;
class QTabWidget;

namespace lanescope {

class TimelineView;
template <typename Row, typename Result> class RowModel;

class TensorsPanel : public ComputedDock
{
    Q_OBJECT
public:
    TensorsPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    // The dock's widgets, made on first use.
    QTabWidget *tabs();
    QTableView *tensorTable();
    QLabel *memoryText();
    // Makes the DMAs of the tensor in a row of the table (its source row) the timeline's matches;
    // returns how many there are.
    size_t findTensor(int sourceRow);
    const QString &status() const { return m_statusText; }

protected:
    bool hasContentFor(const Trace &trace) const override;
    void clear() override;
    void compute() override;

private:
    void ensureBody();
    void present(const TensorTableResult &tensors, const MemoryReport &memory);

    TimelineView *m_timeline;
    QTabWidget *m_tabs = nullptr;
    RowModel<TensorRow, TensorTableResult> *m_model;
    QTableView *m_tensorView = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_memory = nullptr;
    QString m_statusText;
};

} // namespace lanescope
