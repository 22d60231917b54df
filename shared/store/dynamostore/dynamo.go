// Package dynamostore implements the storage port on Amazon DynamoDB: the
// store of the cloud deployment, one table per deployment.
//
// Item layout (see infra/table.json and CreateTable for the table design):
//
//	PK, SK          S  primary key
//	GSI1PK, GSI1SK  S  keys in index GSI1; absent when empty (sparse index)
//	GSI2PK, GSI2SK  S  keys in index GSI2; absent when empty (sparse index)
//	V               N  Item.Version
//	D               B  Item.Data; absent when empty
package dynamostore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/galleydocs/galley/shared/awsretry"
	"github.com/galleydocs/galley/shared/store"
)

// Attribute names.
const (
	attrPK     = "PK"
	attrSK     = "SK"
	attrGSI1PK = "GSI1PK"
	attrGSI1SK = "GSI1SK"
	attrGSI2PK = "GSI2PK"
	attrGSI2SK = "GSI2SK"
	attrV      = "V"
	attrD      = "D"
	// attrTTL is the table's time-to-live attribute (template.yaml's
	// TimeToLiveSpecification): an item's Expires, in Unix seconds.
	attrTTL = "TTL"
)

// Condition expressions of the port's conditions.
const (
	exprNotExists = "attribute_not_exists(" + attrPK + ")"
	exprExists    = "attribute_exists(" + attrPK + ")"
	exprVersion   = attrV + " = :v"
)

// conflictRetries is how many times a write cancelled only because it raced
// with another transaction (TransactionConflict: nothing written, no
// condition known to have failed) is tried again before it is reported as
// store.ErrConflict.
const conflictRetries = 3

// Store is the DynamoDB adapter. It is safe for concurrent use.
type Store struct {
	client *dynamodb.Client
	table  string
}

var _ store.Store = (*Store)(nil)

// New returns a store on table, which must have the design of CreateTable.
func New(client *dynamodb.Client, table string) *Store {
	return &Store{client: client, table: table}
}

// Table is the store's table name (for a function's TABLE_NAME).
func (s *Store) Table() string { return s.table }

// Get implements store.Store.
func (s *Store) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	if err := store.ValidateKey(pk, sk); err != nil {
		return store.Item{}, err
	}
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &s.table,
		Key:            primaryKey(pk, sk),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.Item{}, callError(fmt.Sprintf("dynamodb get %s/%s", pk, sk), err)
	}
	if out.Item == nil {
		return store.Item{}, fmt.Errorf("dynamodb get %s/%s: %w", pk, sk, store.ErrNotFound)
	}
	it, err := decode(out.Item)
	if err != nil {
		return store.Item{}, fmt.Errorf("dynamodb get %s/%s: %w", pk, sk, err)
	}
	return it, nil
}

// BatchGet implements store.Store with BatchGetItem (strongly consistent
// reads), asking again for the keys DynamoDB left unprocessed (throttling,
// or answers past 16 MB), with a growing wait.
func (s *Store) BatchGet(ctx context.Context, keys []store.ItemKey) ([]store.Item, error) {
	if err := store.ValidateBatchGet(keys); err != nil {
		return nil, err
	}
	out := make([]store.Item, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	at := make(map[store.ItemKey]int, len(keys))
	req := make([]map[string]types.AttributeValue, len(keys))
	for i, k := range keys {
		at[k] = i
		req[i] = primaryKey(k.PK, k.SK)
	}
	for attempt := 0; len(req) > 0; attempt++ {
		res, err := s.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
			s.table: {Keys: req, ConsistentRead: aws.Bool(true)},
		}})
		if err != nil {
			return nil, callError(fmt.Sprintf("dynamodb batch get of %d keys (first %s/%s)", len(keys), keys[0].PK, keys[0].SK), err)
		}
		for _, av := range res.Responses[s.table] {
			it, err := decode(av)
			if err != nil {
				return nil, fmt.Errorf("dynamodb batch get: %w", err)
			}
			i, ok := at[store.ItemKey{PK: it.PK, SK: it.SK}]
			if !ok {
				return nil, fmt.Errorf("dynamodb batch get: unasked item %s/%s", it.PK, it.SK)
			}
			out[i] = it
		}
		req = res.UnprocessedKeys[s.table].Keys
		if len(req) > 0 {
			if attempt == 10 {
				// DynamoDB leaves keys unprocessed when it throttles them.
				return nil, fmt.Errorf("dynamodb batch get: %w: %d keys still unprocessed after %d attempts", store.ErrUnavailable, len(req), attempt+1)
			}
			d := time.Duration(5<<min(attempt, 6)) * time.Millisecond
			if err := sleep(ctx, d+rand.N(d)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Write implements store.Store. One put or delete is a PutItem or
// DeleteItem; anything else is a TransactWriteItems.
func (s *Store) Write(ctx context.Context, ops ...store.Op) error {
	if err := store.Validate(ops); err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err := s.write(ctx, ops)
		var (
			conflict  *conflictError
			throttled *throttledError
			wait      time.Duration
		)
		switch {
		case errors.As(err, &throttled):
			// The SDK does not retry a cancelled transaction: retry it as
			// it retries a throttled call, then give up as unavailable.
			if attempt+1 == awsretry.MaxAttempts {
				return fmt.Errorf("%w after %d attempts", throttled, attempt+1)
			}
			wait = awsretry.Delay(attempt + 1)
		case errors.As(err, &conflict) && conflict.race:
			if attempt == conflictRetries {
				return fmt.Errorf("%w after %d attempts", conflict, attempt+1)
			}
			// The other transaction is usually done within milliseconds:
			// wait 5-10 ms, then 10-20 ms, 20-40 ms.
			d := time.Duration(5<<attempt) * time.Millisecond
			wait = d + rand.N(d)
		default:
			return err
		}
		if serr := sleep(ctx, wait); serr != nil {
			return errors.Join(err, serr)
		}
	}
}

// callError wraps the failure of an SDK call: store.ErrUnavailable when it
// is AWS throttling or failing for now (awsretry.Transient).
func callError(what string, err error) error {
	if awsretry.Transient(err) {
		return fmt.Errorf("%s: %w: %w", what, store.ErrUnavailable, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (s *Store) write(ctx context.Context, ops []store.Op) error {
	if len(ops) == 1 && ops[0].Kind != store.OpCheck {
		return s.writeOne(ctx, ops[0])
	}

	items := make([]types.TransactWriteItem, len(ops))
	for i, op := range ops {
		cond, values := condition(op)
		switch op.Kind {
		case store.OpPut:
			items[i].Put = &types.Put{TableName: &s.table, Item: encode(op.Item),
				ConditionExpression: cond, ExpressionAttributeValues: values}
		case store.OpDelete:
			items[i].Delete = &types.Delete{TableName: &s.table, Key: primaryKey(op.Item.PK, op.Item.SK),
				ConditionExpression: cond, ExpressionAttributeValues: values}
		case store.OpCheck:
			items[i].ConditionCheck = &types.ConditionCheck{TableName: &s.table, Key: primaryKey(op.Item.PK, op.Item.SK),
				ConditionExpression: cond, ExpressionAttributeValues: values}
		}
	}
	// The SDK gives the transaction a client request token, the same on
	// each of its attempts, and DynamoDB applies a transaction once per
	// token (for ten minutes): an attempt resent after a lost answer
	// succeeds without writing again.
	_, err := s.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
	if err != nil {
		return writeError(fmt.Sprintf("dynamodb transaction of %d operations (first %s %s/%s)",
			len(ops), kindName(ops[0].Kind), ops[0].Item.PK, ops[0].Item.SK), ops, err)
	}
	return nil
}

// writeOne writes one put or delete: a PutItem or DeleteItem.
//
// A conditional write has no request token, so when the SDK resends one
// whose first answer was lost (the connection failed after DynamoDB
// applied it), the resent one fails its condition against the write's own
// result. writeOne tells that case from a real conflict: when the call
// took more than one attempt and its condition failed, the item DynamoDB
// returns with the failure (ReturnValuesOnConditionCheckFailure) is
// compared with what was written — the same item (every attribute, the
// version included) for a put, no item for a delete — and the write is
// reported done. Otherwise the failure is a conflict as usual.
func (s *Store) writeOne(ctx context.Context, op store.Op) error {
	cond, values := condition(op)
	var (
		attempts int
		err      error
	)
	count := func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, countAttempts(&attempts)) }
	if op.Kind == store.OpPut {
		_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
			TableName:                           &s.table,
			Item:                                encode(op.Item),
			ConditionExpression:                 cond,
			ExpressionAttributeValues:           values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}, count)
	} else {
		_, err = s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
			TableName:                           &s.table,
			Key:                                 primaryKey(op.Item.PK, op.Item.SK),
			ConditionExpression:                 cond,
			ExpressionAttributeValues:           values,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}, count)
	}
	if err == nil {
		return nil
	}
	var ccf *types.ConditionalCheckFailedException
	if attempts > 1 && errors.As(err, &ccf) && appliedBefore(op, ccf.Item) {
		return nil
	}
	return writeError(fmt.Sprintf("dynamodb %s %s/%s", kindName(op.Kind), op.Item.PK, op.Item.SK), []store.Op{op}, err)
}

// appliedBefore reports whether current, the item a failed condition
// found, is what op would leave: op's item for a put, none for a delete.
func appliedBefore(op store.Op, current map[string]types.AttributeValue) bool {
	if op.Kind == store.OpDelete {
		return len(current) == 0
	}
	if len(current) == 0 {
		return false
	}
	it, err := decode(current)
	return err == nil && it.PK == op.Item.PK && it.SK == op.Item.SK && it.Version == op.Item.Version &&
		it.GSI1PK == op.Item.GSI1PK && it.GSI1SK == op.Item.GSI1SK && it.GSI2PK == op.Item.GSI2PK &&
		it.GSI2SK == op.Item.GSI2SK && bytes.Equal(it.Data, op.Item.Data) && len(current) == len(encode(op.Item))
}

// countAttempts counts the attempts of one SDK call: a middleware after
// the retry loop runs once per attempt.
func countAttempts(n *int) func(*middleware.Stack) error {
	return func(st *middleware.Stack) error {
		return st.Finalize.Add(middleware.FinalizeMiddlewareFunc("galleyCountAttempts",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				*n++
				return next.HandleFinalize(ctx, in)
			}), middleware.After)
	}
}

// throttledError is a transaction DynamoDB cancelled because it throttled
// one of its items (no condition failed): a store.ErrUnavailable, never a
// conflict.
type throttledError struct{ msg string }

func (e *throttledError) Error() string { return e.msg }
func (e *throttledError) Unwrap() error { return store.ErrUnavailable }

// conflictError is a write that failed for another write: a store.ErrConflict.
type conflictError struct {
	msg string
	// race: cancelled only because it raced with a transaction on one of its
	// items; nothing was written and no condition is known to have failed,
	// so it is worth trying again.
	race bool
	// version: a version condition failed, so another writer changed the item.
	version bool
}

func (e *conflictError) Error() string { return e.msg }
func (e *conflictError) Unwrap() error { return store.ErrConflict }

// writeError maps the failure of a write of ops to the port's errors.
func writeError(what string, ops []store.Op, err error) error {
	conflict := func(detail string, race, version bool) error {
		return &conflictError{msg: what + ": " + store.ErrConflict.Error() + detail, race: race, version: version}
	}
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return conflict("", false, len(ops) == 1 && ops[0].Cond == store.IfVersion)
	}
	var tc *types.TransactionConflictException
	if errors.As(err, &tc) {
		return conflict(" (the item is being written by a transaction)", true, false)
	}
	var cancelled *types.TransactionCanceledException
	if errors.As(err, &cancelled) {
		// A failed condition is reported as such whatever else happened;
		// throttling outranks a race (both wrote nothing and are worth
		// retrying, but a throttled write that keeps failing is the
		// store's unavailability, not a conflict); another failure
		// (validation, item collection too large) outranks both.
		var failed []string
		race, throttled, version, other := false, false, false, false
		for i, r := range cancelled.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "", "None":
			case "ConditionalCheckFailed":
				failed = append(failed, strconv.Itoa(i))
				version = version || (i < len(ops) && ops[i].Cond == store.IfVersion)
			case "TransactionConflict":
				race = true
			case "ThrottlingError", "ProvisionedThroughputExceeded":
				throttled = true
			default:
				other = true
			}
		}
		switch {
		case len(failed) > 0:
			return conflict(" (operations "+strings.Join(failed, ", ")+")", false, version)
		case other:
		case throttled:
			return &throttledError{msg: what + ": " + store.ErrUnavailable.Error() + " (throttled: " + err.Error() + ")"}
		case race:
			return conflict(" (conflict with another transaction)", true, false)
		}
	}
	return callError(what, err)
}

func kindName(k store.OpKind) string {
	switch k {
	case store.OpPut:
		return "put"
	case store.OpDelete:
		return "delete"
	}
	return "check"
}

// condition returns the condition expression of op and its values.
func condition(op store.Op) (*string, map[string]types.AttributeValue) {
	switch op.Cond {
	case store.IfNotExists:
		return aws.String(exprNotExists), nil
	case store.IfExists:
		return aws.String(exprExists), nil
	case store.IfVersion:
		return aws.String(exprVersion), map[string]types.AttributeValue{":v": number(op.Version)}
	}
	return nil, nil
}

// Query implements store.Store. It asks DynamoDB for one item more than
// the limit, following DynamoDB's own pages (cut at 1 MB), to learn whether
// more items follow.
func (s *Store) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if err := store.ValidateQuery(q); err != nil {
		return store.Page{}, err
	}
	pkName, skName := attrPK, attrSK
	switch q.Index {
	case store.GSI1:
		pkName, skName = attrGSI1PK, attrGSI1SK
	case store.GSI2:
		pkName, skName = attrGSI2PK, attrGSI2SK
	}
	in := &dynamodb.QueryInput{
		TableName:                 &s.table,
		KeyConditionExpression:    aws.String(pkName + " = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(q.PK)},
		ScanIndexForward:          aws.Bool(!q.Reverse),
	}
	if q.SKPrefix != "" {
		in.KeyConditionExpression = aws.String(pkName + " = :pk AND begins_with(" + skName + ", :p)")
		in.ExpressionAttributeValues[":p"] = str(q.SKPrefix)
	}
	if q.Index == store.Table {
		in.ConsistentRead = aws.Bool(true) // global secondary indexes are eventually consistent only
	} else {
		in.IndexName = aws.String(string(q.Index))
	}
	if a := q.After; a != nil {
		in.ExclusiveStartKey = primaryKey(a.PK, a.SK)
		if q.Index != store.Table {
			in.ExclusiveStartKey[pkName] = str(a.IPK)
			in.ExclusiveStartKey[skName] = str(a.ISK)
		}
	}

	want := q.Limit + 1
	var page store.Page
	for len(page.Items) < want {
		in.Limit = aws.Int32(int32(want - len(page.Items)))
		out, err := s.client.Query(ctx, in)
		if err != nil {
			return store.Page{}, callError(fmt.Sprintf("dynamodb query %s %s", indexName(q.Index), q.PK), err)
		}
		for _, av := range out.Items {
			it, err := decode(av)
			if err != nil {
				return store.Page{}, fmt.Errorf("dynamodb query %s %s: %w", indexName(q.Index), q.PK, err)
			}
			page.Items = append(page.Items, it)
		}
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if len(page.Items) > q.Limit {
		page.Items = page.Items[:q.Limit]
		last := page.Items[q.Limit-1]
		page.Next = &store.Key{PK: last.PK, SK: last.SK}
		switch q.Index {
		case store.GSI1:
			page.Next.IPK, page.Next.ISK = last.GSI1PK, last.GSI1SK
		case store.GSI2:
			page.Next.IPK, page.Next.ISK = last.GSI2PK, last.GSI2SK
		}
	}
	return page, nil
}

func indexName(ix store.Index) string {
	if ix == store.Table {
		return "table"
	}
	return string(ix)
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func number(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

func primaryKey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(pk), attrSK: str(sk)}
}

// encode returns the attributes of it, leaving out empty index keys (so the
// item stays out of that index) and empty data.
func encode(it store.Item) map[string]types.AttributeValue {
	av := primaryKey(it.PK, it.SK)
	av[attrV] = number(it.Version)
	if it.GSI1PK != "" {
		av[attrGSI1PK], av[attrGSI1SK] = str(it.GSI1PK), str(it.GSI1SK)
	}
	if it.GSI2PK != "" {
		av[attrGSI2PK], av[attrGSI2SK] = str(it.GSI2PK), str(it.GSI2SK)
	}
	if len(it.Data) > 0 {
		av[attrD] = &types.AttributeValueMemberB{Value: it.Data}
	}
	if it.Expires > 0 {
		av[attrTTL] = number(it.Expires)
	}
	return av
}

// decode reads an item written by encode.
func decode(av map[string]types.AttributeValue) (store.Item, error) {
	var it store.Item
	for name, dst := range map[string]*string{
		attrPK: &it.PK, attrSK: &it.SK,
		attrGSI1PK: &it.GSI1PK, attrGSI1SK: &it.GSI1SK,
		attrGSI2PK: &it.GSI2PK, attrGSI2SK: &it.GSI2SK,
	} {
		switch v := av[name].(type) {
		case nil:
		case *types.AttributeValueMemberS:
			*dst = v.Value
		default:
			return store.Item{}, fmt.Errorf("dynamodb: attribute %s of item is %T, want a string", name, v)
		}
	}
	if it.PK == "" || it.SK == "" {
		return store.Item{}, errors.New("dynamodb: item without PK or SK")
	}
	switch v := av[attrV].(type) {
	case nil:
	case *types.AttributeValueMemberN:
		n, err := strconv.ParseInt(v.Value, 10, 64)
		if err != nil {
			return store.Item{}, fmt.Errorf("dynamodb: version of %s/%s: %w", it.PK, it.SK, err)
		}
		it.Version = n
	default:
		return store.Item{}, fmt.Errorf("dynamodb: attribute %s of %s/%s is %T, want a number", attrV, it.PK, it.SK, v)
	}
	switch v := av[attrD].(type) {
	case nil: // empty data is not stored; it reads back as nil, as from boltstore
	case *types.AttributeValueMemberB:
		it.Data = v.Value
	default:
		return store.Item{}, fmt.Errorf("dynamodb: attribute %s of %s/%s is %T, want binary", attrD, it.PK, it.SK, v)
	}
	return it, nil
}
