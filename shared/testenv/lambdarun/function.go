package lambdarun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ErrKilled is the outcome of an invocation whose process ended before it
// answered (killed, or crashed): Lambda's Runtime.ExitError.
var ErrKilled = errors.New("lambdarun: the function's process exited during the invocation")

// FunctionError is an invocation the function answered with an error
// (posted to the Runtime API's .../error).
type FunctionError struct{ Body []byte }

func (e *FunctionError) Error() string { return "lambdarun: function error: " + string(e.Body) }

// Function is one Lambda function served by processes of its binary, as
// Lambda serves it: an invocation goes to an idle process, or a new one
// is started (a cold start) up to Concurrency processes; each process
// handles one invocation at a time, through a Runtime API of its own on
// loopback. A process that exits (Kill, a crash) fails its invocation
// with ErrKilled and is replaced when invocations wait.
type Function struct {
	Name string
	// Timeout is the function's timeout: the deadline the Runtime API
	// gives each invocation, after which Invoke gives up.
	Timeout time.Duration
	// Concurrency bounds the function's processes.
	Concurrency int

	tb    testing.TB
	cmd   func(runtimeAddr string) *exec.Cmd
	calls chan *call

	mu       sync.Mutex
	procs    []*process
	waiting  int // invocations not yet answered
	closed   bool
	started  int
	killed   int
	requests atomic.Int64
}

type call struct {
	id    string
	event []byte
	done  chan result // buffered: one answer
}

type result struct {
	body []byte
	err  error
}

// process is one running process of a function, and its Runtime API.
type process struct {
	f       *Function
	srv     *httptest.Server
	cmd     *exec.Cmd
	logs    *tail
	mu      sync.Mutex
	exited  bool
	current *call
	// signalled: the process was sent SIGKILL (Kill, its timeout);
	// served: it took an invocation.
	signalled, served atomic.Bool
}

// NewFunction serves the binary bin as the function name; command makes
// a process's command given its Runtime API's address (Command with the
// function's environment). Its processes are killed when tb ends.
func NewFunction(tb testing.TB, name string, timeout time.Duration, concurrency int, command func(runtimeAddr string) *exec.Cmd) *Function {
	f := &Function{Name: name, Timeout: timeout, Concurrency: concurrency, tb: tb, cmd: command, calls: make(chan *call, 1024)}
	tb.Cleanup(f.close)
	return f
}

// Invoke gives event to the function and answers what it posted as its
// response; ErrKilled when the process exited first, a *FunctionError
// when it answered an error, context.DeadlineExceeded past the timeout.
func (f *Function) Invoke(ctx context.Context, event []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	c := &call{id: fmt.Sprintf("%s-%d", f.Name, f.requests.Add(1)), event: event, done: make(chan result, 1)}
	f.mu.Lock()
	f.waiting++
	f.scaleLocked()
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.waiting--
		f.mu.Unlock()
	}()
	f.calls <- c
	select {
	case r := <-c.done:
		return r.body, r.err
	case <-ctx.Done():
		// The process may still be at it: Lambda would end it at its
		// timeout; so does this.
		f.killHolder(c)
		return nil, ctx.Err()
	}
}

// scaleLocked starts a process when more invocations wait than processes
// run, within the concurrency.
func (f *Function) scaleLocked() {
	for !f.closed && f.waiting > len(f.procs) && len(f.procs) < f.Concurrency {
		p, err := f.start()
		if err != nil {
			f.tb.Errorf("%s: start: %v", f.Name, err)
			return
		}
		f.procs = append(f.procs, p)
	}
}

func (f *Function) start() (*process, error) {
	p := &process{f: f, logs: &tail{max: 16 << 10}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	p.cmd = f.cmd(strings.TrimPrefix(p.srv.URL, "http://"))
	p.cmd.Stdout = io.Discard // one metrics record per request
	p.cmd.Stderr = p.logs
	if err := p.cmd.Start(); err != nil {
		p.srv.Close()
		return nil, err
	}
	f.started++
	go p.wait()
	return p, nil
}

// wait reaps the process; its invocation, if any, fails with ErrKilled,
// and a replacement starts if invocations wait.
func (p *process) wait() {
	err := p.cmd.Wait()
	p.mu.Lock()
	p.exited = true
	c := p.current
	p.current = nil
	p.mu.Unlock()
	p.srv.CloseClientConnections()
	p.srv.Close()
	if c != nil {
		c.done <- result{err: fmt.Errorf("%w (%v; stderr: %s)", ErrKilled, err, p.logs.String())}
	}
	f := p.f
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, q := range f.procs {
		if q == p {
			f.procs = append(f.procs[:i], f.procs[i+1:]...)
			break
		}
	}
	if !f.closed && !p.signalled.Load() {
		f.tb.Logf("%s: a process exited by itself (%v); its stderr: %s", f.Name, err, p.logs.String())
		if !p.served.Load() {
			// Failed at its start (Lambda's Runtime.InitError): the
			// invocation that started it fails, no new process is tried.
			select {
			case w := <-f.calls:
				w.done <- result{err: fmt.Errorf("%w: init failed (%v)", ErrKilled, err)}
			default:
			}
			return
		}
	}
	f.scaleLocked()
}

// serve is the process's Runtime API (2018-06-01): next hands it the
// next invocation, response and error take its answer.
func (p *process) serve(w http.ResponseWriter, req *http.Request) {
	const base = "/2018-06-01/runtime/"
	rest := strings.TrimPrefix(req.URL.Path, base)
	switch {
	case req.Method == http.MethodGet && rest == "invocation/next":
		var c *call
		select {
		case c = <-p.f.calls:
		case <-req.Context().Done():
			return
		}
		p.mu.Lock()
		if p.exited {
			p.mu.Unlock()
			p.f.calls <- c // for another process
			return
		}
		p.current = c
		p.mu.Unlock()
		p.served.Store(true)
		w.Header().Set("Lambda-Runtime-Aws-Request-Id", c.id)
		w.Header().Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(p.f.Timeout).UnixMilli(), 10))
		w.Header().Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:"+p.f.Name)
		w.Header().Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000")
		_, _ = w.Write(c.event)
	case req.Method == http.MethodPost && strings.HasPrefix(rest, "invocation/"):
		body, _ := io.ReadAll(req.Body)
		id, kind, _ := strings.Cut(strings.TrimPrefix(rest, "invocation/"), "/")
		p.mu.Lock()
		c := p.current
		if c != nil && c.id == id {
			p.current = nil
		} else {
			c = nil
		}
		p.mu.Unlock()
		if c != nil {
			r := result{body: body}
			if kind != "response" {
				r = result{err: &FunctionError{Body: body}}
			}
			c.done <- r
		}
		w.WriteHeader(http.StatusAccepted)
	case req.Method == http.MethodPost && rest == "init/error":
		body, _ := io.ReadAll(req.Body)
		p.logs.Write([]byte("init error: " + string(body)))
		w.WriteHeader(http.StatusAccepted)
	default:
		http.NotFound(w, req)
	}
}

// Kill sends SIGKILL to one of the function's processes, chosen by rng
// among those handling an invocation (any, when none is); false when none
// runs. The invocation it was handling fails (ErrKilled); the next
// invocation starts a new process, as Lambda does.
func (f *Function) Kill(rng *rand.Rand) bool {
	f.mu.Lock()
	live := append([]*process(nil), f.procs...)
	f.mu.Unlock()
	var busy []*process
	for _, p := range live {
		p.mu.Lock()
		if p.current != nil {
			busy = append(busy, p)
		}
		p.mu.Unlock()
	}
	if len(busy) > 0 {
		live = busy
	}
	if len(live) == 0 {
		return false
	}
	p := live[rng.IntN(len(live))]
	p.signalled.Store(true)
	if p.cmd.Process.Signal(os.Kill) != nil {
		return false
	}
	f.mu.Lock()
	f.killed++
	f.mu.Unlock()
	return true
}

// Busy is how many of the function's processes handle an invocation.
func (f *Function) Busy() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, p := range f.procs {
		p.mu.Lock()
		if p.current != nil {
			n++
		}
		p.mu.Unlock()
	}
	return n
}

// killHolder kills the process holding c (an invocation past its
// timeout), as Lambda ends a function at its timeout.
func (f *Function) killHolder(c *call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.procs {
		p.mu.Lock()
		holds := p.current == c
		p.mu.Unlock()
		if holds {
			f.tb.Logf("%s: invocation %s past the function's timeout (%v), its process killed; its stderr: %s", f.Name, c.id, f.Timeout, p.logs.String())
			p.signalled.Store(true)
			_ = p.cmd.Process.Signal(os.Kill)
		}
	}
}

// Counts answers how many processes were started and killed (by Kill).
func (f *Function) Counts() (started, killed int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.started, f.killed
}

// Pids are the running processes' ids (for their memory).
func (f *Function) Pids() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int
	for _, p := range f.procs {
		out = append(out, p.cmd.Process.Pid)
	}
	return out
}

func (f *Function) close() {
	f.mu.Lock()
	f.closed = true
	procs := append([]*process(nil), f.procs...)
	f.mu.Unlock()
	for _, p := range procs {
		_ = p.cmd.Process.Signal(os.Kill)
	}
	for _, p := range procs {
		for i := 0; i < 100; i++ {
			p.mu.Lock()
			done := p.exited
			p.mu.Unlock()
			if done {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
