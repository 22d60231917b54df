package dynamostore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/galleydocs/galley/shared/store"
	"github.com/galleydocs/galley/shared/store/dynamostore"
	"github.com/galleydocs/galley/shared/store/storetest"
	"github.com/galleydocs/galley/shared/testkit"
)

func TestMain(m *testing.M) { testkit.Main(m) }

// tableSeq numbers the tables of this test binary.
var tableSeq atomic.Int64

// client returns a client of the shared DynamoDB Local. The credentials are
// fake and the endpoint is explicit: these tests never reach AWS.
func client(t *testing.T) *dynamodb.Client {
	t.Helper()
	endpoint := testkit.DynamoDBLocal().Endpoint(t)
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "galley", SecretAccessKey: "galley", Source: "test"}, nil
		}),
	})
}

// newTable creates a fresh table for t, deleted at its end.
func newTable(t *testing.T, c *dynamodb.Client) string {
	t.Helper()
	name := fmt.Sprintf("galley-test-%d", tableSeq.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := dynamostore.CreateTable(ctx, c, name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, err := c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		if err != nil {
			t.Errorf("delete table %s: %v", name, err)
		}
	})
	return name
}

func TestConformanceDynamoDB(t *testing.T) {
	c := client(t)
	storetest.RunTests(t, func(t *testing.T) store.Store {
		return dynamostore.New(c, newTable(t, c))
	})
}

// TestTableJSONMatchesCreateTable checks that infra/table.json, the table
// design documented for users, is the request CreateTable sends.
func TestTableJSONMatchesCreateTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "infra", "table.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var fromJSON dynamodb.CreateTableInput
	if err := dec.Decode(&fromJSON); err != nil {
		t.Fatalf("infra/table.json: %v", err)
	}
	want := dynamostore.TableInput(aws.ToString(fromJSON.TableName))
	if !reflect.DeepEqual(&fromJSON, want) {
		got, _ := json.MarshalIndent(&fromJSON, "", " ")
		exp, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("infra/table.json and dynamostore.TableInput differ:\n-- table.json --\n%s\n-- TableInput --\n%s", got, exp)
	}
}

func TestCreateTableIsIdempotent(t *testing.T) {
	c := client(t)
	name := newTable(t, c)
	if err := dynamostore.CreateTable(context.Background(), c, name); err != nil {
		t.Fatalf("second CreateTable: %v", err)
	}
	// A table of the name with another design is refused.
	other := name + "-other"
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            aws.String(other),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(other)})
	if err := dynamostore.CreateTable(context.Background(), c, other); err == nil || !strings.Contains(err.Error(), "another design") {
		t.Fatalf("CreateTable over a foreign table: %v", err)
	}
}

// TestItemLayout checks the attributes the adapter writes, which the table
// design and anyone reading the table rely on.
func TestItemLayout(t *testing.T) {
	c := client(t)
	name := newTable(t, c)
	s := dynamostore.New(c, name)
	ctx := context.Background()
	full := store.Item{PK: "P", SK: "full", GSI1PK: "G1", GSI1SK: "g1", GSI2PK: "G2", GSI2SK: "g2", Version: 42, Data: []byte("x"), Expires: 1767225600}
	bare := store.Item{PK: "P", SK: "bare", Version: 1}
	if err := s.Write(ctx, store.Put(full, store.Always), store.Put(bare, store.Always)); err != nil {
		t.Fatal(err)
	}
	raw := func(sk string) map[string]types.AttributeValue {
		out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "P"}, "SK": &types.AttributeValueMemberS{Value: sk}}})
		if err != nil {
			t.Fatal(err)
		}
		return out.Item
	}
	attrs := func(m map[string]types.AttributeValue) string {
		var parts []string
		for _, k := range []string{"PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "V", "D", "TTL"} {
			switch v := m[k].(type) {
			case nil:
			case *types.AttributeValueMemberS:
				parts = append(parts, k+"=S:"+v.Value)
			case *types.AttributeValueMemberN:
				parts = append(parts, k+"=N:"+v.Value)
			case *types.AttributeValueMemberB:
				parts = append(parts, k+"=B:"+string(v.Value))
			default:
				parts = append(parts, fmt.Sprintf("%s=%T", k, v))
			}
		}
		if len(parts) != len(m) {
			parts = append(parts, fmt.Sprintf("(%d attributes in all)", len(m)))
		}
		return strings.Join(parts, " ")
	}
	if got, want := attrs(raw("full")), "PK=S:P SK=S:full GSI1PK=S:G1 GSI1SK=S:g1 GSI2PK=S:G2 GSI2SK=S:g2 V=N:42 D=B:x TTL=N:1767225600"; got != want {
		t.Errorf("full item stored as %s, want %s", got, want)
	}
	if got, want := attrs(raw("bare")), "PK=S:P SK=S:bare V=N:1"; got != want {
		t.Errorf("bare item stored as %s, want %s", got, want)
	}
	got, err := s.Get(ctx, "P", "bare")
	if err != nil || len(got.Data) != 0 || got.GSI1PK != "" || got.Version != 1 {
		t.Errorf("bare item read back as %+v, %v", got, err)
	}
}

// TestQueryAcrossResponsePages fills a partition past DynamoDB's 1 MB cap on
// one Query response, so that a page of the port spans several responses.
func TestQueryAcrossResponsePages(t *testing.T) {
	c := client(t)
	s := dynamostore.New(c, newTable(t, c))
	ctx := context.Background()
	const n, size = 40, 60 * 1024 // 2.4 MB
	data := bytes.Repeat([]byte("x"), size)
	for i := 0; i < n; i += 10 {
		var ops []store.Op
		for j := i; j < i+10; j++ {
			ops = append(ops, store.Put(store.Item{PK: "BIG", SK: fmt.Sprintf("%03d", j), Version: 1, Data: data}, store.Always))
		}
		if err := s.Write(ctx, ops...); err != nil {
			t.Fatal(err)
		}
	}
	for _, reverse := range []bool{false, true} {
		p, err := s.Query(ctx, store.Query{PK: "BIG", Limit: store.MaxQueryLimit, Reverse: reverse})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != n || p.Next != nil {
			t.Fatalf("reverse %v: %d items, next %v; want %d and no next", reverse, len(p.Items), p.Next, n)
		}
		p, err = s.Query(ctx, store.Query{PK: "BIG", Limit: n - 1, Reverse: reverse})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != n-1 || p.Next == nil {
			t.Fatalf("reverse %v, limit %d: %d items, next %v", reverse, n-1, len(p.Items), p.Next)
		}
		p, err = s.Query(ctx, store.Query{PK: "BIG", Limit: n, Reverse: reverse})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != n || p.Next != nil {
			t.Fatalf("reverse %v, limit %d: %d items, next %v", reverse, n, len(p.Items), p.Next)
		}
	}
}

// offline is a store whose client is never reached: for the requests the
// adapter refuses itself.
func offline() *dynamostore.Store {
	return dynamostore.New(dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1")}), "none")
}

func TestGetInvalidKey(t *testing.T) {
	if _, err := offline().Get(context.Background(), "", "S"); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
}

// TestTransactionOverDynamoDBSizeLimit: DynamoDB refuses transactions of
// more than 4 MB, which the port does not limit itself.
func TestTransactionOverDynamoDBSizeLimit(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 390*1024)
	var ops []store.Op
	for i := 0; i < 11; i++ {
		ops = append(ops, store.Put(store.Item{PK: "P", SK: fmt.Sprint(i), Data: data}, store.Always))
	}
	if err := offline().Write(context.Background(), ops...); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
}
