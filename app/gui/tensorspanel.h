#pragma once
// The Tensors dock of a Neuron device profile: the Tensors tab (TensorTable: every tensor of the NEFF
// with type, format, shape, size, the DMAs that moved it and neuron-profile's load-to-SBUF numbers;
// activating a row makes its DMA packets and transfers the timeline's search matches) and the Memory
// tab (MemoryReport: static memory by usage type, HBM / SBUF / PSUM traffic with spill reload / save,
// MBU, and the usage / throughput counters whose lanes the timeline draws). The same numbers as
// `lanescope-cli tensors` and `memory`. Computed on a worker thread while the dock is seen; shown for
// traces that have tensors or memory numbers, hidden otherwise.
#include "panel.h"

#include "analysis/memoryreport.h"
#include "analysis/tensortable.h"

class QLabel;
class QTabWidget;

namespace lanescope {

class DockJob;
class TimelineView;
template <typename Row, typename Result> class RowModel;

class TensorsPanel : public Panel
{
    Q_OBJECT
public:
    TensorsPanel(Session *session, TimelineView *timeline, QMainWindow *window);

    bool hasContent() const { return m_hasContent; }
    QTabWidget *tabs() const { return m_tabs; }
    QTableView *tensorTable() const { return m_tensorView; }
    QLabel *memoryText() const { return m_memory; }
    // Makes the DMAs of the tensor in a row of the table (its source row) the timeline's matches;
    // returns how many there are.
    size_t findTensor(int sourceRow);
    const QString &status() const { return m_statusText; }
    // View > Reset Layout: forget that the user closed the dock; shown iff the trace has content.
    void resetVisibility();

signals:
    void computed();

private:
    void onTraceChanged();
    void compute();
    void present(const TensorTableResult &tensors, const MemoryReport &memory);

    TimelineView *m_timeline;
    QTabWidget *m_tabs;
    RowModel<TensorRow, TensorTableResult> *m_model;
    QTableView *m_tensorView;
    QLabel *m_status;
    QLabel *m_memory;
    DockJob *m_job;
    QString m_statusText;
    bool m_hasContent = false;
    bool m_userClosed = false; // closed with its button or the View menu: stays closed for the next trace
};

} // namespace lanescope
