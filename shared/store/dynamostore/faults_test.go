package dynamostore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/testenv/faultproxy"
	"github.com/galleydocs/galley/shared/testkit"
)

// faulty returns a store on a fresh table reached through a fault proxy,
// the proxy, and a store on the same table reached directly, to check
// what was written.
func faulty(t *testing.T) (*dynamostore.Store, *faultproxy.Proxy, *dynamostore.Store) {
	t.Helper()
	c := client(t)
	name := newTable(t, c)
	p := faultproxy.New(t, faultproxy.Upstreams{DynamoDB: testkit.DynamoDBLocal().Endpoint(t)})
	pc := dynamodb.NewFromConfig(p.Via(aws.Config{Region: "us-east-1", Credentials: c.Options().Credentials, Retryer: awsretry.New}))
	return dynamostore.New(pc, name), p, dynamostore.New(c, name)
}

func item(pk, sk, data string) store.Item {
	return store.Item{PK: pk, SK: sk, Version: 1, Data: []byte(data)}
}

// increment adds one to the counter at pk/COUNTER through store.Update,
// with extra operations when given.
func increment(ctx context.Context, s store.Store, pk string, extra ...store.Op) error {
	_, err := store.Update(ctx, s, pk, "COUNTER", func(old store.Item) (store.Item, []store.Op, error) {
		var c struct{ N int }
		if len(old.Data) > 0 {
			if err := json.Unmarshal(old.Data, &c); err != nil {
				return store.Item{}, nil, err
			}
		}
		c.N++
		data, _ := json.Marshal(c)
		return store.Item{Data: data}, extra, nil
	})
	return err
}

// seed writes it, which must be new.
func seed(t *testing.T, s store.Store, it store.Item) {
	t.Helper()
	if err := s.Write(context.Background(), store.Put(it, store.IfNotExists)); err != nil {
		t.Fatal(err)
	}
}

// seedCounter writes the counter at pk/COUNTER at 0, version 1.
func seedCounter(t *testing.T, s store.Store, pk string) { seed(t, s, item(pk, "COUNTER", `{"N":0}`)) }

func counter(t *testing.T, s store.Store, pk string) (n int, version int64) {
	t.Helper()
	it, err := s.Get(context.Background(), pk, "COUNTER")
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ N int }
	if err := json.Unmarshal(it.Data, &c); err != nil {
		t.Fatal(err)
	}
	return c.N, it.Version
}

// dynamoFaults are the faults of DynamoDB's calls the tests inject: the
// error answers, a reset connection, and a transaction cancelled for
// throttling (reason) of its first item.
func dynamoFaults(reason string) []faultproxy.Rule {
	return []faultproxy.Rule{
		{Fault: faultproxy.ProvisionedThroughputExceeded},
		{Fault: faultproxy.Throttling},
		{Fault: faultproxy.InternalServerError},
		{Fault: faultproxy.Reset},
		{Op: "TransactWriteItems", Fault: faultproxy.TransactionCanceled(reason, "None")},
	}
}

// Faults injected into a tenth of the calls are absorbed by the SDK's
// retries: every write succeeds and is there afterwards, once.
func TestFaultsShareIsAbsorbed(t *testing.T) {
	for _, r := range dynamoFaults("ThrottlingError") {
		t.Run(r.Fault.Name, func(t *testing.T) {
			s, p, direct := faulty(t)
			ctx := context.Background()
			r.Service, r.Share = faultproxy.DynamoDB, 0.1
			p.Set(r)
			const n = 40
			seedCounter(t, s, "C")
			for i := range n {
				a := item("A", fmt.Sprint(i), "a")
				if err := s.Write(ctx, store.Put(a, store.IfNotExists)); err != nil {
					t.Fatalf("put %d: %v", i, err)
				}
				if err := s.Write(ctx, store.Put(item("T", fmt.Sprint(i), "t"), store.IfNotExists),
					store.Put(item("U", fmt.Sprint(i), "u"), store.IfNotExists)); err != nil {
					t.Fatalf("transaction %d: %v", i, err)
				}
				if err := increment(ctx, s, "C"); err != nil {
					t.Fatalf("increment %d: %v", i, err)
				}
				if got, err := s.Get(ctx, "A", fmt.Sprint(i)); err != nil || string(got.Data) != "a" {
					t.Fatalf("get %d: %v %q", i, err, got.Data)
				}
			}
			if p.Injected(faultproxy.DynamoDB, "") == 0 {
				t.Fatal("no fault was injected")
			}
			p.Set()
			for _, pk := range []string{"A", "T", "U"} {
				page, err := direct.Query(ctx, store.Query{PK: pk, Limit: 100})
				if err != nil || len(page.Items) != n {
					t.Errorf("%s: %d items (%v), want %d", pk, len(page.Items), err, n)
				}
			}
			if got, v := counter(t, direct, "C"); got != n || v != n+1 {
				t.Errorf("counter %d at version %d, want %d at %d", got, v, n, n+1)
			}
			t.Logf("%d of %d calls faulted", p.Injected(faultproxy.DynamoDB, ""), p.Calls(faultproxy.DynamoDB, ""))
		})
	}
}

// A fault on every call makes each operation fail, after the SDK's
// attempts, with store.ErrUnavailable — never ErrConflict, which would
// send store.Retry round again — and writes nothing.
func TestFaultsPersistentIsUnavailable(t *testing.T) {
	for _, r := range dynamoFaults("ProvisionedThroughputExceeded") {
		t.Run(r.Fault.Name, func(t *testing.T) {
			s, p, direct := faulty(t)
			ctx := context.Background()
			r.Service = faultproxy.DynamoDB
			p.Set(r)
			unavailable := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrConflict) {
					t.Errorf("%s: %v, want ErrUnavailable and not ErrConflict", what, err)
				}
			}
			unavailable("transaction", s.Write(ctx, store.Put(item("T", "1", "t"), store.IfNotExists),
				store.Put(item("U", "1", "u"), store.IfNotExists)))
			if got := p.Calls(faultproxy.DynamoDB, "TransactWriteItems"); got != awsretry.MaxAttempts {
				t.Errorf("transaction tried %d times, want %d", got, awsretry.MaxAttempts)
			}
			if r.Op == "" {
				unavailable("put", s.Write(ctx, store.Put(item("A", "1", "a"), store.IfNotExists)))
				_, err := s.Get(ctx, "A", "1")
				unavailable("get", err)
				_, err = s.Query(ctx, store.Query{PK: "A", Limit: 10})
				unavailable("query", err)
				_, err = s.BatchGet(ctx, []store.ItemKey{{PK: "A", SK: "1"}})
				unavailable("batch get", err)
			}
			p.Set()
			for _, k := range []store.ItemKey{{PK: "T", SK: "1"}, {PK: "U", SK: "1"}, {PK: "A", SK: "1"}} {
				if _, err := direct.Get(ctx, k.PK, k.SK); !errors.Is(err, store.ErrNotFound) {
					t.Errorf("%v after the failed writes: %v, want nothing written", k, err)
				}
			}
		})
	}
	// store.Update gives up at once: the read once, the write the SDK's
	// attempts, no round of store.Retry.
	t.Run("update", func(t *testing.T) {
		s, p, direct := faulty(t)
		ctx := context.Background()
		seedCounter(t, s, "C")
		p.Set(faultproxy.Rule{Service: faultproxy.DynamoDB, Op: "PutItem", Fault: faultproxy.Throttling})
		before := p.Calls(faultproxy.DynamoDB, "GetItem")
		if err := increment(ctx, s, "C"); !errors.Is(err, store.ErrUnavailable) {
			t.Fatalf("update: %v, want ErrUnavailable", err)
		}
		if reads, writes := p.Calls(faultproxy.DynamoDB, "GetItem")-before, p.Injected(faultproxy.DynamoDB, "PutItem"); reads != 1 || writes != awsretry.MaxAttempts {
			t.Errorf("update made %d reads and %d writes, want 1 and %d", reads, writes, awsretry.MaxAttempts)
		}
		if n, v := counter(t, direct, "C"); n != 0 || v != 1 {
			t.Errorf("counter %d at version %d, want 0 at 1", n, v)
		}
	})
}

// A cancelled transaction is a conflict when a condition failed (whatever
// else happened), retried when it raced or was throttled, and unavailable
// when the throttling lasts.
func TestFaultsTransactionCanceledReasons(t *testing.T) {
	for _, c := range []struct {
		reasons []string
		count   int // 0: every attempt
		want    string
		calls   int
	}{
		{[]string{"ConditionalCheckFailed", "None"}, 0, "conflict", 1},
		{[]string{"ThrottlingError", "ConditionalCheckFailed"}, 0, "conflict", 1},
		{[]string{"TransactionConflict", "None"}, 1, "ok", 2},
		{[]string{"ThrottlingError", "None"}, 2, "ok", 3},
		{[]string{"ThrottlingError", "TransactionConflict"}, 0, "unavailable", awsretry.MaxAttempts},
		{[]string{"ProvisionedThroughputExceeded", "None"}, 0, "unavailable", awsretry.MaxAttempts},
		{[]string{"TransactionConflict", "None"}, 0, "conflict", 4},
		{[]string{"ValidationError", "None"}, 0, "other", 1},
	} {
		t.Run(fmt.Sprint(c.reasons, c.count), func(t *testing.T) {
			s, p, direct := faulty(t)
			ctx := context.Background()
			p.Set(faultproxy.Rule{Service: faultproxy.DynamoDB, Op: "TransactWriteItems", Count: c.count,
				Fault: faultproxy.TransactionCanceled(c.reasons...)})
			err := s.Write(ctx, store.Put(item("T", "1", "t"), store.IfNotExists), store.Put(item("U", "1", "u"), store.IfNotExists))
			var got string
			switch {
			case err == nil:
				got = "ok"
			case errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrUnavailable):
				got = "conflict"
			case errors.Is(err, store.ErrUnavailable) && !errors.Is(err, store.ErrConflict):
				got = "unavailable"
			case !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrUnavailable):
				got = "other"
			}
			if got != c.want {
				t.Errorf("%v: %s, want %s", err, got, c.want)
			}
			if n := p.Calls(faultproxy.DynamoDB, "TransactWriteItems"); n != c.calls {
				t.Errorf("%d attempts, want %d", n, c.calls)
			}
			_, terr := direct.Get(ctx, "T", "1")
			if written := terr == nil; written != (c.want == "ok") {
				t.Errorf("written: %v (%v), want %v", written, terr, c.want == "ok")
			}
		})
	}
}

// A write whose answer is lost after DynamoDB applied it (the connection
// reset) is resent by the SDK; it is reported done and applied once. A
// real conflict behind a lost answer is still a conflict.
func TestFaultsLostAnswerAppliesOnce(t *testing.T) {
	drop := func(op string) faultproxy.Rule {
		return faultproxy.Rule{Service: faultproxy.DynamoDB, Op: op, Count: 1, Fault: faultproxy.DropAnswer}
	}
	ctx := context.Background()
	t.Run("put if not exists", func(t *testing.T) {
		s, p, direct := faulty(t)
		p.Set(drop("PutItem"))
		if err := s.Write(ctx, store.Put(item("A", "1", "a"), store.IfNotExists)); err != nil {
			t.Fatalf("put: %v, want done", err)
		}
		if got, err := direct.Get(ctx, "A", "1"); err != nil || string(got.Data) != "a" {
			t.Errorf("item %v %q", err, got.Data)
		}
		if n := p.Calls(faultproxy.DynamoDB, "PutItem"); n != 2 {
			t.Errorf("%d attempts, want 2 (the answer lost, then the resend)", n)
		}
	})
	t.Run("update", func(t *testing.T) {
		s, p, direct := faulty(t)
		seedCounter(t, s, "C")
		p.Set(drop("PutItem"))
		if err := increment(ctx, s, "C"); err != nil {
			t.Fatalf("increment: %v", err)
		}
		if n, v := counter(t, direct, "C"); n != 1 || v != 2 {
			t.Errorf("counter %d at version %d after one increment, want 1 at 2", n, v)
		}
	})
	t.Run("update in a transaction", func(t *testing.T) {
		s, p, direct := faulty(t)
		seedCounter(t, s, "C")
		p.Set(drop("TransactWriteItems"))
		if err := increment(ctx, s, "C", store.Put(item("L", "1", "log"), store.IfNotExists)); err != nil {
			t.Fatalf("increment: %v", err)
		}
		if n, v := counter(t, direct, "C"); n != 1 || v != 2 {
			t.Errorf("counter %d at version %d after one increment, want 1 at 2", n, v)
		}
		if n := p.Calls(faultproxy.DynamoDB, "TransactWriteItems"); n != 2 {
			t.Errorf("%d attempts, want 2", n)
		}
	})
	t.Run("delete if exists", func(t *testing.T) {
		s, p, direct := faulty(t)
		seed(t, s, item("A", "1", "a"))
		p.Set(drop("DeleteItem"))
		if err := s.Write(ctx, store.Delete("A", "1", store.IfExists)); err != nil {
			t.Fatalf("delete: %v, want done", err)
		}
		if _, err := direct.Get(ctx, "A", "1"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("after delete: %v", err)
		}
	})
	t.Run("conflict behind a lost answer", func(t *testing.T) {
		s, p, direct := faulty(t)
		seed(t, direct, item("A", "1", "theirs"))
		p.Set(drop("PutItem"))
		if err := s.Write(ctx, store.Put(item("A", "1", "ours"), store.IfNotExists)); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("put over another's item: %v, want ErrConflict", err)
		}
		if got, _ := direct.Get(ctx, "A", "1"); string(got.Data) != "theirs" {
			t.Errorf("item %q, want theirs", got.Data)
		}
	})
}
