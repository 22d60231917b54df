package content

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"github.com/galleydocs/galley/shared/blob"
	"github.com/galleydocs/galley/shared/model"
)

// The read index of a tree lets a read of one page or one file cost work
// in proportion to that page, not to the tree: the tree blob of a
// 5,000-page revision is 1.3 MB of JSON, and decoding it takes tens of
// milliseconds and megabytes. The index holds the same pages and files,
// cut into small blobs (docs/content.md, "The read index"):
//
//   - chunks: the pages in depth-first order, indexChunkPages a blob, one
//     JSON entry a line (a read decodes only the lines it needs), each
//     with its path and the position after its last descendant, so a
//     page's subtree is the run of entries that follows it (a leaf reads
//     one chunk, a section of 100 pages one or two); gzipped;
//   - lookups: page id -> position, page path -> page id, file id -> file,
//     spread over one blob per indexLookupKeys keys or so by a hash of the
//     key; one key a line, found by scanning the bytes, not decoded;
//   - a manifest naming how many of each there are, written last: a
//     manifest means a whole index. A process keeps the last ones it read.
//
// Trees are immutable and named by their hash, so the index is keyed by
// the tree's hash (revisions sharing a tree share it) and never changes.
// It is built by the first read that needs it (from the tree, as every read
// did before), so revisions written before it existed read the same, and
// writing a revision costs what it did. A part found missing is rebuilt
// the same way.

const (
	indexVersion    = "v1"
	indexChunkPages = 128
	indexLookupKeys = 512
	// indexWriters is how many index blobs a build writes at once.
	indexWriters = 16
)

func indexKey(spaceID, treeHash, name string) string {
	return "spaces/" + spaceID + "/treeindex/" + treeHash + "." + indexVersion + "/" + name
}

// indexManifest says how a tree's index is cut.
type indexManifest struct {
	Pages   int `json:"pages"`
	Chunk   int `json:"chunk"`
	Lookups int `json:"lookups"`
}

// indexEntry is a page at its position in depth-first order.
type indexEntry struct {
	Page Page   `json:"page"`
	Path string `json:"path"`
	// End is the position after the page's last descendant: the page's
	// descendants are the entries between it and End.
	End int `json:"end"`
}

// lookupOf is the lookup blob holding a key of a kind ("page", "path",
// "file") among n.
func lookupOf(kind, key string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(n))
}

// lookupLine is how a lookup blob holds a key: the kind, the quoted key
// (so that it holds no space or line break) and a space start a line,
// which the value's JSON ends. A reader finds a key by scanning the bytes
// for that start, and decodes only the value it finds.
func lookupLine(kind, key string) string { return kind + " " + strconv.Quote(key) + " " }

// builtIndex is a tree's index in memory.
type builtIndex struct {
	manifest indexManifest
	entries  []indexEntry
	lookups  [][]string
}

// buildIndex cuts an indexed tree into its read index.
func buildIndex(ix *Index) *builtIndex {
	b := &builtIndex{entries: make([]indexEntry, 0, len(ix.pages))}
	// paths are the pages ByPath finds: the first sibling of each slug,
	// under such a page. A slug holding "/" is no path segment.
	paths := make(map[string]string, len(ix.pages))
	var walk func(parent, prefix string, reachable bool)
	walk = func(parent, prefix string, reachable bool) {
		for _, id := range ix.children[parent] {
			p := ix.pages[id]
			path := prefix + p.Slug
			at := len(b.entries)
			b.entries = append(b.entries, indexEntry{Page: *p, Path: path})
			found := reachable && !strings.Contains(p.Slug, "/")
			if found {
				if _, taken := paths[path]; taken {
					found = false
				} else {
					paths[path] = id
				}
			}
			walk(id, path+"/", found)
			b.entries[at].End = len(b.entries)
		}
	}
	walk("", "", true)
	keys := len(b.entries) + len(paths) + len(ix.files) + 2*len(ix.reusable)
	if len(ix.variables) > 0 {
		keys++
	}
	n := max(1, (keys+indexLookupKeys-1)/indexLookupKeys)
	b.manifest = indexManifest{Pages: len(b.entries), Chunk: indexChunkPages, Lookups: n}
	b.lookups = make([][]string, n)
	add := func(kind, key string, v any) {
		raw, _ := json.Marshal(v) // ints, strings and files always encode
		i := lookupOf(kind, key, n)
		b.lookups[i] = append(b.lookups[i], lookupLine(kind, key)+string(raw))
	}
	for pos, e := range b.entries {
		add("page", e.Page.ID, pos)
	}
	for path, id := range paths {
		add("path", path, id)
	}
	for id, f := range ix.files {
		add("file", id, f)
	}
	// Reusable contents by id and by the file they came from, and the
	// space's variables (reusableindex.go): absent from indexes of trees
	// without them, including those built before they existed.
	for id, rc := range ix.reusable {
		add(lookupReusable, id, rc)
		if rc.Git != nil && rc.Git.Path != "" {
			add(lookupInclude, rc.Git.Path, id)
		}
	}
	if len(ix.variables) > 0 {
		add(lookupVariables, "", ix.variables)
	}
	for _, l := range b.lookups {
		// Builders racing on one tree write the same bytes.
		sort.Strings(l)
	}
	return b
}

// chunk returns the entries of chunk c.
func (b *builtIndex) chunk(c int) []indexEntry {
	return b.entries[c*b.manifest.Chunk : min((c+1)*b.manifest.Chunk, len(b.entries))]
}

// writeIndex stores an index; the manifest goes last, once the rest is
// there.
func (r *Repo) writeIndex(ctx context.Context, spaceID, treeHash string, b *builtIndex) error {
	type object struct {
		name  string
		lines func(w *bytes.Buffer) error
	}
	var objects []object
	for c := 0; c*b.manifest.Chunk < len(b.entries); c++ {
		objects = append(objects, object{"chunk-" + strconv.Itoa(c), func(w *bytes.Buffer) error {
			// One entry a line, so that a read decodes only the entries
			// it needs.
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false)
			for i := range b.chunk(c) {
				if err := enc.Encode(&b.chunk(c)[i]); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	for i, l := range b.lookups {
		objects = append(objects, object{"lookup-" + strconv.Itoa(i), func(w *bytes.Buffer) error {
			w.Write(lookupLines(l))
			return nil
		}})
	}
	put := func(o object) error {
		var raw bytes.Buffer
		if err := o.lines(&raw); err != nil {
			return err
		}
		if !zipped(o.name) {
			if err := r.d.Blobs.Put(ctx, indexKey(spaceID, treeHash, o.name), raw.Bytes(), "text/plain; charset=utf-8"); err != nil {
				return fmt.Errorf("write tree index: %w", err)
			}
			return nil
		}
		return r.putGzipped(ctx, indexKey(spaceID, treeHash, o.name), raw.Bytes())
	}
	if err := each(objects, indexWriters, put); err != nil {
		return err
	}
	manifest, err := json.Marshal(b.manifest)
	if err != nil {
		return err
	}
	return r.putGzipped(ctx, indexKey(spaceID, treeHash, "manifest"), manifest)
}

func (r *Repo) putGzipped(ctx context.Context, key string, data []byte) error {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := r.d.Blobs.Put(ctx, key, buf.Bytes(), "application/gzip"); err != nil {
		return fmt.Errorf("write tree index: %w", err)
	}
	return nil
}

// manifestCacheSize bounds the cache of the manifests of the tree indexes
// this process read last: they never change, and each saves a read of the
// blob store (a manifest is a few dozen bytes).
const manifestCacheSize = 1024

// TreeReader answers reads of one page or one file of a revision, reading
// only the parts of the tree's index they need, each once. It serves one
// request: it is not safe for concurrent use.
type TreeReader struct {
	r        *Repo
	rev      model.Revision
	manifest indexManifest
	chunks   map[int]*indexChunk
	lookups  map[int][]byte
	// built: the whole index is in memory (this reader built it).
	built bool
	// zr is reused: each new gzip reader allocates its 32 KB window.
	zr *gzip.Reader
}

// indexChunk is a chunk read: its lines, decoded when first needed.
type indexChunk struct {
	lines   [][]byte
	entries []*indexEntry
}

func (c *indexChunk) entry(i int) (*indexEntry, error) {
	if c.entries[i] == nil {
		var e indexEntry
		if err := json.Unmarshal(c.lines[i], &e); err != nil {
			return nil, fmt.Errorf("decode tree index: %w", err)
		}
		c.entries[i] = &e
	}
	return c.entries[i], nil
}

// Reader returns a reader of a revision's tree: from its index, which the
// first reader of the tree builds from the tree.
func (r *Repo) Reader(ctx context.Context, rev model.Revision) (*TreeReader, error) {
	tr := &TreeReader{r: r, rev: rev, chunks: map[int]*indexChunk{}, lookups: map[int][]byte{}}
	if rev.Tree == "" {
		return tr, nil
	}
	key := indexKey(rev.SpaceID, rev.Tree, "manifest")
	if m, ok := r.manifests.get(key); ok {
		tr.manifest = m
		return tr, nil
	}
	if u, ok := r.unwritten.get(key); ok {
		tr.manifest, tr.built = u.manifest, true
		for i, l := range u.lookups {
			tr.lookups[i] = l
		}
		for c, lines := range u.chunks {
			tr.chunks[c] = &indexChunk{lines: lines, entries: make([]*indexEntry, len(lines))}
		}
		return tr, nil
	}
	raw, err := tr.get(ctx, "manifest")
	if errors.Is(err, blob.ErrNotFound) {
		return tr, tr.build(ctx)
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &tr.manifest); err != nil {
		return nil, fmt.Errorf("decode tree index: %w", err)
	}
	if m := tr.manifest; m.Chunk <= 0 || m.Lookups <= 0 || m.Pages < 0 {
		return tr, tr.build(ctx)
	}
	r.manifests.put(key, tr.manifest)
	return tr, nil
}

// build reads the whole tree, cuts its index, keeps it in memory for this
// reader and writes it for the next ones. It is how a revision written
// before the index existed gets one, and how a missing part is replaced.
func (tr *TreeReader) build(ctx context.Context) error {
	if tr.built {
		return fmt.Errorf("tree index of %s: built, yet a part is missing", tr.rev.Tree)
	}
	t, err := tr.r.Tree(ctx, tr.rev)
	if err != nil {
		return err
	}
	b := buildIndex(NewIndex(t))
	key := indexKey(tr.rev.SpaceID, tr.rev.Tree, "manifest")
	if err := tr.r.writeIndex(ctx, tr.rev.SpaceID, tr.rev.Tree, b); err != nil {
		// The index only saves work: this read answers from the index
		// in memory, and so do this process's next reads of the tree (a
		// function that may only read the bucket, like the reader's,
		// builds it once, not on every read); another process writes it.
		tr.r.d.Logger.WarnContext(ctx, "tree index not written", "space", tr.rev.SpaceID, "tree", tr.rev.Tree, "err", err)
		if u, err := encodeIndex(b); err == nil {
			tr.r.unwritten.put(key, u)
		}
	} else {
		tr.r.manifests.put(key, b.manifest)
	}
	tr.use(b)
	return nil
}

// use makes b, an index built in memory, the reader's.
func (tr *TreeReader) use(b *builtIndex) {
	tr.built = true
	tr.manifest = b.manifest
	for c := 0; c*b.manifest.Chunk < len(b.entries); c++ {
		entries := b.chunk(c)
		ch := &indexChunk{lines: make([][]byte, len(entries)), entries: make([]*indexEntry, len(entries))}
		for i := range entries {
			ch.entries[i] = &entries[i]
		}
		tr.chunks[c] = ch
	}
	for i, l := range b.lookups {
		tr.lookups[i] = lookupLines(l)
	}
}

// lookupLines is a lookup table as its blob holds it: a line an entry.
func lookupLines(l []string) []byte {
	var buf bytes.Buffer
	for _, line := range l {
		buf.WriteString(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// unwrittenIndex is an index built in memory that could not be written,
// kept as its blobs would hold it (chunks as lines, decoded by each reader
// as it needs them), so that readers share nothing they change.
type unwrittenIndex struct {
	manifest indexManifest
	chunks   map[int][][]byte
	lookups  map[int][]byte
}

// encodeIndex is b as its blobs would hold it, uncompressed.
func encodeIndex(b *builtIndex) (*unwrittenIndex, error) {
	u := &unwrittenIndex{manifest: b.manifest, chunks: map[int][][]byte{}, lookups: map[int][]byte{}}
	for c := 0; c*b.manifest.Chunk < len(b.entries); c++ {
		entries := b.chunk(c)
		lines := make([][]byte, len(entries))
		for i := range entries {
			raw, err := json.Marshal(&entries[i])
			if err != nil {
				return nil, err
			}
			lines[i] = raw
		}
		u.chunks[c] = lines
	}
	for i, l := range b.lookups {
		u.lookups[i] = lookupLines(l)
	}
	return u, nil
}

// builtCacheSize bounds the cache of the last indexes built in memory that
// could not be written (their trees' reads in this process use them); a
// few, since a 5,000-page tree's index is a few megabytes in memory.
const builtCacheSize = 4

// zipped tells the parts of an index stored gzipped: the manifest and the
// chunks (gzip makes them five times smaller). Lookups are kept as they
// are: a read scans one for a key, and unzipping it would cost most of
// the read's time.
func zipped(name string) bool { return !strings.HasPrefix(name, "lookup-") }

// get reads a blob of the index, unzipped (blob.ErrNotFound when absent).
func (tr *TreeReader) get(ctx context.Context, name string) ([]byte, error) {
	raw, err := tr.r.d.Blobs.Get(ctx, indexKey(tr.rev.SpaceID, tr.rev.Tree, name))
	if err != nil || !zipped(name) {
		return raw, err
	}
	if tr.zr == nil {
		tr.zr, err = gzip.NewReader(bytes.NewReader(raw))
	} else {
		err = tr.zr.Reset(bytes.NewReader(raw))
	}
	if err != nil {
		return nil, fmt.Errorf("read tree index %s: %w", name, err)
	}
	// gzip ends with the data's size: one allocation of the right size
	// (bounded, should the blob lie).
	var out bytes.Buffer
	if len(raw) >= 4 {
		out.Grow(min(int(binary.LittleEndian.Uint32(raw[len(raw)-4:])), 64<<20) + 1)
	}
	if _, err := out.ReadFrom(tr.zr); err != nil {
		return nil, fmt.Errorf("read tree index %s: %w", name, err)
	}
	return out.Bytes(), nil
}

// part reads a part of the index (a chunk or a lookup) that is not in
// memory; nil when the index lacks it and a rebuild put it in memory.
func (tr *TreeReader) part(ctx context.Context, name string) ([]byte, error) {
	data, err := tr.get(ctx, name)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, tr.build(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("read tree index: %w", err)
	}
	return data, nil
}

// lookup finds a key's value in its lookup blob; nil when absent.
func (tr *TreeReader) lookup(ctx context.Context, kind, key string) ([]byte, error) {
	if tr.manifest.Lookups == 0 {
		return nil, nil
	}
	i := lookupOf(kind, key, tr.manifest.Lookups)
	data, ok := tr.lookups[i]
	if !ok {
		var err error
		if data, err = tr.part(ctx, "lookup-"+strconv.Itoa(i)); err != nil {
			return nil, err
		}
		if data == nil {
			data = tr.lookups[i]
		} else {
			tr.lookups[i] = data
		}
	}
	start := []byte(lookupLine(kind, key))
	for off := 0; off < len(data); {
		j := bytes.Index(data[off:], start)
		if j < 0 {
			return nil, nil
		}
		j += off
		if j == 0 || data[j-1] == '\n' {
			value := data[j+len(start):]
			if end := bytes.IndexByte(value, '\n'); end >= 0 {
				value = value[:end]
			}
			return value, nil
		}
		off = j + 1
	}
	return nil, nil
}

// entries returns the entries at positions [from, to).
func (tr *TreeReader) entries(ctx context.Context, from, to int) ([]*indexEntry, error) {
	out := make([]*indexEntry, 0, max(to-from, 0))
	k := tr.manifest.Chunk
	for pos := from; pos < to; pos++ {
		c := pos / k
		ch, ok := tr.chunks[c]
		if !ok {
			data, err := tr.part(ctx, "chunk-"+strconv.Itoa(c))
			if err != nil {
				return nil, err
			}
			if data != nil {
				ch = &indexChunk{lines: bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))}
				ch.entries = make([]*indexEntry, len(ch.lines))
				tr.chunks[c] = ch
			} else if ch = tr.chunks[c]; ch == nil {
				return nil, fmt.Errorf("tree index of %s: no chunk %d", tr.rev.Tree, c)
			}
		}
		if pos-c*k >= len(ch.entries) {
			return nil, fmt.Errorf("tree index of %s: chunk %d lacks position %d", tr.rev.Tree, c, pos)
		}
		e, err := ch.entry(pos - c*k)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// position returns a page's position, or -1.
func (tr *TreeReader) position(ctx context.Context, id string) (int, error) {
	v, err := tr.lookup(ctx, "page", id)
	if err != nil || v == nil {
		return -1, err
	}
	pos, err := strconv.Atoi(string(v))
	if err != nil || pos < 0 || pos >= tr.manifest.Pages {
		return -1, fmt.Errorf("tree index of %s: bad position of page %s", tr.rev.Tree, id)
	}
	return pos, nil
}

// subtree returns a page and its descendants in depth-first order, and the
// page's position (entries' End are positions); nil when there is no such
// page.
func (tr *TreeReader) subtree(ctx context.Context, id string) ([]*indexEntry, int, error) {
	pos, err := tr.position(ctx, id)
	if err != nil || pos < 0 {
		return nil, 0, err
	}
	first, err := tr.entries(ctx, pos, pos+1)
	if err != nil {
		return nil, 0, err
	}
	if first[0].Page.ID != id || first[0].End <= pos {
		return nil, 0, fmt.Errorf("tree index of %s: page %s is not at %d", tr.rev.Tree, id, pos)
	}
	all, err := tr.entries(ctx, pos, first[0].End)
	return all, pos, err
}

// PageAtPath returns the id of the page at a path (Index.ByPath), or "".
func (tr *TreeReader) PageAtPath(ctx context.Context, path string) (string, error) {
	id, err := lookupAs[string](ctx, tr, "path", path)
	if err != nil || id == nil {
		return "", err
	}
	return *id, nil
}

// File returns a file, or nil.
func (tr *TreeReader) File(ctx context.Context, id string) (*File, error) {
	return lookupAs[File](ctx, tr, "file", id)
}

// lookupAs decodes the JSON value of a lookup, nil when there is none.
func lookupAs[T any](ctx context.Context, tr *TreeReader, kind, key string) (*T, error) {
	v, err := tr.lookup(ctx, kind, key)
	if err != nil || v == nil {
		return nil, err
	}
	var out T
	if err := json.Unmarshal(v, &out); err != nil {
		return nil, fmt.Errorf("decode tree index: %w", err)
	}
	return &out, nil
}

// locator finds pages for one page's links through a reader; a failed
// read is kept in err (document.ToDocument cannot return one).
type locator struct {
	ctx context.Context
	tr  *TreeReader
	err error
}

func (l *locator) fail(err error) {
	if l.err == nil {
		l.err = err
	}
}

// GitPath is Index.GitPath.
func (l *locator) GitPath(id string) string {
	pos, err := l.tr.position(l.ctx, id)
	if err != nil || pos < 0 {
		l.fail(err)
		return ".md"
	}
	e, err := l.tr.entries(l.ctx, pos, pos+1)
	if err != nil {
		l.fail(err)
		return ""
	}
	if e[0].End > pos+1 {
		return e[0].Path + "/README.md"
	}
	return e[0].Path + ".md"
}

// HasPage is Index.HasPage.
func (l *locator) HasPage(id string) bool {
	pos, err := l.tr.position(l.ctx, id)
	l.fail(err)
	return pos >= 0
}

// PageAtGitPath is Index.PageAtGitPath.
func (l *locator) PageAtGitPath(gitPath string) string {
	path, ok := pathOfGitPath(gitPath)
	if !ok {
		return ""
	}
	id, err := l.tr.PageAtPath(l.ctx, path)
	l.fail(err)
	return id
}
