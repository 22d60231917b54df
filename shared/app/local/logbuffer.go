package local

import (
	"io"
	"sync"
	"time"
)

// logFlushEvery is the longest a log line of the local server waits to be
// written.
const logFlushEvery = 50 * time.Millisecond

// logBufferBytes is how much waits before it is written at once.
const logBufferBytes = 32 << 10

// logBuffer gathers the local server's log lines and writes them out in
// one write every logFlushEvery (or when logBufferBytes wait), instead of
// one write per request line: at a few thousand requests a second those
// writes were a tenth of a request's cost. A crash that skips Close loses
// the last logFlushEvery of lines. Lambda functions write directly (a
// frozen function would hold its lines back).
type logBuffer struct {
	mu        sync.Mutex
	w         io.Writer
	buf       []byte
	scheduled bool
}

func newLogBuffer(w io.Writer) *logBuffer { return &logBuffer{w: w} }

// Write implements io.Writer; slog writes one whole line per call.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= logBufferBytes {
		return len(p), b.flushLocked()
	}
	if !b.scheduled {
		b.scheduled = true
		time.AfterFunc(logFlushEvery, func() { _ = b.Flush() })
	}
	return len(p), nil
}

// Flush writes out what waits.
func (b *logBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.scheduled = false
	return b.flushLocked()
}

func (b *logBuffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}
