// Package secret owns the installation's secret: 32 random bytes made once
// per installation and kept in the store, from which page tokens are signed
// and job credentials sealed. It is read on first use, not at start-up, so
// that a Lambda function does no network I/O before its first invocation,
// and kept for the life of the process once read.
package secret

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/galleydocs/galley/shared/keys"
	"github.com/galleydocs/galley/shared/records"
	"github.com/galleydocs/galley/shared/store"
)

// Instance is the installation's secret, read lazily.
type Instance struct {
	store store.Store
	mu    sync.Mutex // one first read at a time
	key   atomic.Pointer[[]byte]
}

// New returns the secret kept in s; nothing is read until Key is called.
func New(s store.Store) *Instance { return &Instance{store: s} }

// Fixed returns an Instance holding key (tests, tools).
func Fixed(key []byte) *Instance {
	i := &Instance{}
	i.key.Store(&key)
	return i
}

type record struct {
	Key []byte `json:"key"`
}

// Key returns the secret, reading it (or creating it, when the installation
// has none yet) on the first call. A failed read is not kept: the next call
// tries again.
func (i *Instance) Key(ctx context.Context) ([]byte, error) {
	// Every request asks (the API loads the cursor secret first): once
	// read, the key is returned without taking the lock.
	if k := i.key.Load(); k != nil {
		return *k, nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if k := i.key.Load(); k != nil {
		return *k, nil
	}
	if i.store == nil {
		return nil, errors.New("instance secret: no store")
	}
	// A conflict means another process made it between our read and our
	// put-if-absent: the retry reads theirs.
	var key []byte
	err := store.Retry(ctx, func() error {
		v, _, err := records.Get[record](ctx, i.store, keys.InstanceSecret())
		if err == nil {
			key = v.Key
			return nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("read instance secret: %w", err)
		}
		fresh := record{Key: make([]byte, 32)}
		if _, err := rand.Read(fresh.Key); err != nil {
			return err
		}
		if err := i.store.Write(ctx, store.Put(records.Item(keys.InstanceSecret(), fresh, 1), store.IfNotExists)); err != nil {
			return fmt.Errorf("create instance secret: %w", err)
		}
		key = fresh.Key
		return nil
	})
	if err != nil {
		return nil, err
	}
	i.key.Store(&key)
	return key, nil
}

// Derive returns a key for one purpose, derived from the secret with
// HMAC-SHA-256, so that no two uses share a key.
func (i *Instance) Derive(ctx context.Context, purpose string) ([]byte, error) {
	k, err := i.Key(ctx)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, k)
	m.Write([]byte(purpose))
	return m.Sum(nil), nil
}

// Seal encrypts plain (AES-256-GCM) with a key derived for purpose, bound
// to ad: what a record keeps that the installation must read back but a
// reader of the table must not (webhook signing secrets).
func (i *Instance) Seal(ctx context.Context, purpose, ad, plain string) (string, error) {
	g, err := i.aead(ctx, purpose)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.RawStdEncoding.EncodeToString(g.Seal(nonce, nonce, []byte(plain), []byte(ad))), nil
}

// Open decrypts what Seal sealed for the same purpose and ad.
func (i *Instance) Open(ctx context.Context, purpose, ad, sealed string) (string, error) {
	raw, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil {
		return "", errors.New("sealed value: not base64")
	}
	g, err := i.aead(ctx, purpose)
	if err != nil {
		return "", err
	}
	if len(raw) < g.NonceSize() {
		return "", errors.New("sealed value: too short")
	}
	plain, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], []byte(ad))
	if err != nil {
		return "", errors.New("sealed value: cannot be opened")
	}
	return string(plain), nil
}

func (i *Instance) aead(ctx context.Context, purpose string) (cipher.AEAD, error) {
	key, err := i.Derive(ctx, purpose)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
