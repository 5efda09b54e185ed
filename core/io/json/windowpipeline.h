#pragma once
// Parses the windows of a JsonWindowSplitter on worker threads and merges the results on the calling
// thread in file order; a merged window's text goes back to the splitter for the next window. At most threads + 2 windows are split and not yet merged, so memory stays
// bounded whatever the file size; the calling thread splits (and waits for the next result) while
// the workers parse. With threads <= 1 everything runs on the calling thread, one window at a time;
// so does an array of one window (most small files): the workers start only once a second window
// exists, since starting threads costs more than parsing a small file (about 1 ms a thread under ASan,
// where it made the JSON fuzz harnesses ten times slower).
// `parse(window, worker)` is called with the worker's number (0 .. threads - 1), so it can keep
// per-thread state (a simdjson parser reused for every window of that thread).
// Shared by the JSON readers that read an event array in windows.
#include "jsonwindowsplitter.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

namespace lanescope {

template <class Parse, class Merge>
void parseWindowsInOrder(JsonWindowSplitter &splitter, unsigned threads, Parse &&parse, Merge &&merge)
{
    using Result = std::invoke_result_t<Parse &, JsonWindow &, unsigned>;
    if (threads <= 1) {
        JsonWindow w;
        while (splitter.next(w)) {
            Result r = parse(w, 0u);
            merge(r);
            splitter.recycle(std::move(w.text));
        }
        return;
    }
    JsonWindow first, second;
    if (!splitter.next(first))
        return;
    bool two = false;
    try {
        two = splitter.next(second);
    } catch (...) { // thrown after the window before it is merged, as in one pass
        Result r = parse(first, 0u);
        merge(r);
        throw;
    }
    if (!two) {
        Result r = parse(first, 0u);
        merge(r);
        splitter.recycle(std::move(first.text));
        return;
    }
    struct Job
    {
        JsonWindow window;
        std::optional<Result> result;
    };
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<std::unique_ptr<Job>> inFlight; // file order
    std::deque<Job *> todo;
    bool stop = false;
    std::vector<std::thread> workers;
    struct Joiner
    {
        std::mutex &m;
        std::condition_variable &cv;
        bool &stop;
        std::vector<std::thread> &workers;
        ~Joiner()
        {
            {
                std::lock_guard lock(m);
                stop = true;
            }
            cv.notify_all();
            for (auto &t : workers)
                t.join();
        }
    } joiner{mutex, changed, stop, workers};
    for (unsigned t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            for (;;) {
                Job *job = nullptr;
                {
                    std::unique_lock lock(mutex);
                    changed.wait(lock, [&] { return stop || !todo.empty(); });
                    if (stop)
                        return;
                    job = todo.front();
                    todo.pop_front();
                }
                Result r = parse(job->window, t);
                {
                    std::lock_guard lock(mutex);
                    job->result.emplace(std::move(r));
                }
                changed.notify_all();
            }
        });
    }
    for (JsonWindow *w : {&first, &second}) {
        auto job = std::make_unique<Job>();
        job->window = std::move(*w);
        std::lock_guard lock(mutex);
        todo.push_back(job.get());
        inFlight.push_back(std::move(job));
    }
    changed.notify_all();
    const size_t maxInFlight = size_t(threads) + 2;
    bool more = true;
    std::exception_ptr splitError; // thrown after the windows before it are merged, as in one pass
    for (;;) {
        while (more && inFlight.size() < maxInFlight) {
            auto job = std::make_unique<Job>();
            try {
                more = splitter.next(job->window);
            } catch (...) {
                splitError = std::current_exception();
                more = false;
            }
            if (!more)
                break;
            {
                std::lock_guard lock(mutex);
                todo.push_back(job.get());
                inFlight.push_back(std::move(job));
            }
            changed.notify_all();
        }
        if (inFlight.empty()) {
            if (splitError)
                std::rethrow_exception(splitError);
            return;
        }
        std::unique_ptr<Job> front;
        {
            std::unique_lock lock(mutex);
            changed.wait(lock, [&] { return inFlight.front()->result.has_value(); });
            front = std::move(inFlight.front());
            inFlight.pop_front();
        }
        merge(*front->result);
        splitter.recycle(std::move(front->window.text));
    }
}

} // namespace lanescope
