package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/galleydocs/galley/shared/fetch"
)

// remote is one Git repository over smart HTTP, spoken through the
// guarded fetcher's HTTP client (the address of every connection checked,
// redirects included) with go-git's protocol code, without go-git's global
// transport registry. Its credentials live only here, for the job's
// duration.
type remote struct {
	client transport.Transport
	ep     *transport.Endpoint
	auth   transport.AuthMethod
	// secrets are strings that must never leave in an error.
	secrets []string
}

// newRemote prepares a repository URL (credentials removed) with the
// credentials to use for it.
// openRemote opens a repository (its URL without credentials) with its
// sealed credentials ("" none), through the guarded fetcher.
func (s *Service) openRemote(ctx context.Context, cleanURL, sealedAuth string) (*remote, error) {
	user, password, err := s.unseal(ctx, sealedAuth)
	if err != nil {
		return nil, err
	}
	return newRemote(fetch.NewWithTimeout(s.d.FetchAllowPrivate, s.Timeout).HTTP(), cleanURL, user, password)
}

func newRemote(hc *http.Client, cleanURL, user, password string) (*remote, error) {
	ep, err := transport.NewEndpoint(cleanURL)
	if err != nil || (ep.Protocol != "http" && ep.Protocol != "https") {
		return nil, errors.New("the repository URL must be an http or https URL")
	}
	ep.User, ep.Password = "", ""
	r := &remote{client: githttp.NewClient(hc), ep: ep}
	if user != "" || password != "" {
		r.auth = &githttp.BasicAuth{Username: user, Password: password}
		for _, s := range []string{user, password} {
			if len(s) >= 3 {
				r.secrets = append(r.secrets, s)
			}
		}
	}
	return r, nil
}

// scrub turns an error of the Git exchange into one that names no
// credential (go-git and net/http may quote the URL or the user).
func (r *remote) scrub(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, s := range r.secrets {
		msg = strings.ReplaceAll(msg, s, "***")
	}
	return &scrubbed{msg: msg, cause: err}
}

// scrubbed is an error whose message names no credential; errors.Is and
// errors.As still see its cause.
type scrubbed struct {
	msg   string
	cause error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.cause }

// snapshot is a fetched commit: objects in memory, the commit (nil when
// the ref does not exist), and its flattened tree.
type snapshot struct {
	st     *memory.Storage
	commit *object.Commit
	files  map[string]entry
	// branches counts the repository's branches (0: it is empty).
	branches int
}

// entry is one file of a tree: mode and blob.
type entry struct {
	mode filemode.FileMode
	hash plumbing.Hash
}

// errNoRef: the repository has no such ref.
var errNoRef = errors.New("the repository has no such ref")

// fetch reads the commit ref points to ("": the default branch), shallow
// (depth 1): its tree and blobs, not its history. A missing ref (or an
// empty repository) gives a snapshot without a commit.
func (r *remote) fetch(ctx context.Context, ref string) (*snapshot, error) {
	snap := &snapshot{st: memory.NewStorage(), files: map[string]entry{}}
	sess, err := r.client.NewUploadPackSession(r.ep, r.auth)
	if err != nil {
		return nil, r.scrub(err)
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return snap, nil
	}
	if err != nil {
		return nil, r.scrub(err)
	}
	refs, err := ar.AllReferences()
	if err != nil {
		return nil, r.scrub(err)
	}
	for name := range refs {
		if name.IsBranch() {
			snap.branches++
		}
	}
	var want plumbing.Hash
	if ref == "" {
		// The default branch: what HEAD points to.
		h, ok := defaultBranch(ar, refs)
		if !ok {
			return snap, nil
		}
		want = h
	} else {
		target, ok := refs[plumbing.ReferenceName(ref)]
		if !ok {
			return snap, nil
		}
		want = target.Hash()
	}
	req := packp.NewUploadPackRequestFromCapabilities(ar.Capabilities)
	req.Wants = []plumbing.Hash{want}
	if ar.Capabilities.Supports(capability.Shallow) {
		req.Depth = packp.DepthCommits(1)
		_ = req.Capabilities.Set(capability.Shallow)
	}
	if ar.Capabilities.Supports(capability.NoProgress) {
		_ = req.Capabilities.Set(capability.NoProgress)
	}
	resp, err := sess.UploadPack(ctx, req)
	if err != nil {
		return nil, r.scrub(err)
	}
	defer resp.Close()
	var rd io.Reader = resp
	switch {
	case req.Capabilities.Supports(capability.Sideband64k):
		rd = sideband.NewDemuxer(sideband.Sideband64k, resp)
	case req.Capabilities.Supports(capability.Sideband):
		rd = sideband.NewDemuxer(sideband.Sideband, resp)
	}
	if err := packfile.UpdateObjectStorage(snap.st, rd); err != nil {
		return nil, r.scrub(fmt.Errorf("read the packfile: %w", err))
	}
	c, err := object.GetCommit(snap.st, want)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", want, err)
	}
	snap.commit = c
	tree, err := c.Tree()
	if err != nil {
		return nil, fmt.Errorf("read the tree of %s: %w", c.Hash, err)
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		snap.files[f.Name] = entry{mode: f.Mode, hash: f.Hash}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk the tree of %s: %w", c.Hash, err)
	}
	return snap, nil
}

// defaultBranch is the commit of a repository's default branch: what the
// advertised HEAD points to. Servers that leave HEAD out (Bitbucket
// Server; a bare repository whose HEAD names a branch never pushed) are
// read as git clients do: the symref capability, else main, else master,
// else the only branch.
func defaultBranch(ar *packp.AdvRefs, refs memory.ReferenceStorage) (plumbing.Hash, bool) {
	if ar.Head != nil {
		return *ar.Head, true
	}
	var candidates []plumbing.ReferenceName
	for _, v := range ar.Capabilities.Get(capability.SymRef) {
		if name, target, ok := strings.Cut(v, ":"); ok && name == "HEAD" {
			candidates = append(candidates, plumbing.ReferenceName(target))
		}
	}
	candidates = append(candidates, plumbing.NewBranchReferenceName("main"), plumbing.NewBranchReferenceName("master"))
	for _, c := range candidates {
		if r, ok := refs[c]; ok {
			return r.Hash(), true
		}
	}
	var only *plumbing.Reference
	for name, r := range refs {
		if name.IsBranch() {
			if only != nil {
				return plumbing.ZeroHash, false
			}
			only = r
		}
	}
	if only == nil {
		return plumbing.ZeroHash, false
	}
	return only.Hash(), true
}

// size is a blob's size, read from its header.
func (s *snapshot) size(h plumbing.Hash) (int64, error) {
	o, err := s.st.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return 0, err
	}
	return o.Size(), nil
}

// has tells whether the snapshot holds a blob (so that the remote has it).
func (s *snapshot) has(h plumbing.Hash) bool {
	_, err := s.st.EncodedObject(plumbing.BlobObject, h)
	return err == nil
}

// blob reads a file of the snapshot.
func (s *snapshot) blob(h plumbing.Hash) ([]byte, error) {
	b, err := object.GetBlob(s.st, h)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// writer makes new objects in a snapshot's storage and remembers them, so
// that a push sends only what it made.
type writer struct {
	st   *memory.Storage
	made map[plumbing.Hash]bool
}

func (w *writer) put(typ plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	obj := w.st.NewEncodedObject()
	obj.SetType(typ)
	wr, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := wr.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := wr.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return w.set(obj)
}

// encode writes o, a tree or a commit, as a new object.
func (w *writer) encode(o object.Object) (plumbing.Hash, error) {
	obj := w.st.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return w.set(obj)
}

// set stores a new object and remembers it as made.
func (w *writer) set(obj plumbing.EncodedObject) (plumbing.Hash, error) {
	h, err := w.st.SetEncodedObject(obj)
	if err == nil {
		w.made[h] = true
	}
	return h, err
}

func (w *writer) blob(data []byte) (plumbing.Hash, error) { return w.put(plumbing.BlobObject, data) }

// tree writes the tree objects of a flattened tree and returns the root's
// hash; unchanged subtrees get their old hashes back.
func (w *writer) tree(files map[string]entry) (plumbing.Hash, error) {
	type dir struct {
		files map[string]entry
		dirs  map[string]*dir
	}
	root := &dir{files: map[string]entry{}, dirs: map[string]*dir{}}
	for p, e := range files {
		segs := strings.Split(p, "/")
		d := root
		for _, seg := range segs[:len(segs)-1] {
			if d.dirs[seg] == nil {
				d.dirs[seg] = &dir{files: map[string]entry{}, dirs: map[string]*dir{}}
			}
			d = d.dirs[seg]
		}
		d.files[segs[len(segs)-1]] = e
	}
	var write func(d *dir) (plumbing.Hash, error)
	write = func(d *dir) (plumbing.Hash, error) {
		var entries []object.TreeEntry
		for name, e := range d.files {
			entries = append(entries, object.TreeEntry{Name: name, Mode: e.mode, Hash: e.hash})
		}
		for name, sub := range d.dirs {
			h, err := write(sub)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		// Git orders entries by name, a directory's name as if it ended in "/".
		key := func(e object.TreeEntry) string {
			if e.Mode == filemode.Dir {
				return e.Name + "/"
			}
			return e.Name
		}
		sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
		return w.encode(&object.Tree{Entries: entries})
	}
	return write(root)
}

// errNotFastForward: the branch is not where the push expected it.
var errNotFastForward = errors.New("the branch moved (non-fast-forward)")

// push updates ref from old (zero: create it) to new, sending the objects
// w made. The server refuses the update when the ref is no longer at old.
func (r *remote) push(ctx context.Context, w *writer, ref string, old, new plumbing.Hash) error {
	sess, err := r.client.NewReceivePackSession(r.ep, r.auth)
	if err != nil {
		return r.scrub(err)
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil && !errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return r.scrub(err)
	}
	current := plumbing.ZeroHash
	if ar != nil {
		if refs, err := ar.AllReferences(); err == nil {
			if cur, ok := refs[plumbing.ReferenceName(ref)]; ok {
				current = cur.Hash()
			}
		}
	}
	if current != old {
		return errNotFastForward
	}
	caps := capability.NewList()
	if ar != nil {
		caps = ar.Capabilities
	}
	req := packp.NewReferenceUpdateRequestFromCapabilities(caps)
	req.Commands = []*packp.Command{{Name: plumbing.ReferenceName(ref), Old: old, New: new}}
	hashes := make([]plumbing.Hash, 0, len(w.made))
	for h := range w.made {
		hashes = append(hashes, h)
	}
	var pack bytes.Buffer
	if _, err := packfile.NewEncoder(&pack, w.st, !caps.Supports(capability.OFSDelta)).Encode(hashes, 10); err != nil {
		return fmt.Errorf("encode the packfile: %w", err)
	}
	req.Packfile = io.NopCloser(&pack)
	rs, err := sess.ReceivePack(ctx, req)
	if err != nil {
		return r.scrub(err)
	}
	if rs != nil {
		if err := rs.Error(); err != nil {
			return r.scrub(err)
		}
	}
	return nil
}
