package dynamostore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// maxTableWait bounds CreateTable's wait for the table to become active when
// ctx has no earlier deadline.
const maxTableWait = 5 * time.Minute

// TableInput returns the design of Galley's table, named name: primary key
// PK (hash) and SK (range), global secondary indexes GSI1 (GSI1PK, GSI1SK)
// and GSI2 (GSI2PK, GSI2SK) projecting all attributes, all keys strings,
// billed per request. infra/table.json is the same request as JSON (the
// tests check that they agree), and template.yaml declares the same table.
func TableInput(name string) *dynamodb.CreateTableInput {
	key := func(name string, t types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: t}
	}
	gsi := func(name, pk, sk string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{
			IndexName:  aws.String(name),
			KeySchema:  []types.KeySchemaElement{key(pk, types.KeyTypeHash), key(sk, types.KeyTypeRange)},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}
	}
	in := &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		KeySchema: []types.KeySchemaElement{key(attrPK, types.KeyTypeHash), key(attrSK, types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			gsi("GSI1", attrGSI1PK, attrGSI1SK),
			gsi("GSI2", attrGSI2PK, attrGSI2SK),
		},
		BillingMode: types.BillingModePayPerRequest,
	}
	for _, a := range []string{attrPK, attrSK, attrGSI1PK, attrGSI1SK, attrGSI2PK, attrGSI2SK} {
		in.AttributeDefinitions = append(in.AttributeDefinitions,
			types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: types.ScalarAttributeTypeS})
	}
	return in
}

// CreateTable creates the table of TableInput(name) and waits until it and
// its indexes are active. A table of that name that already exists is
// accepted (after waiting for it) if it has the same keys and indexes.
func CreateTable(ctx context.Context, client *dynamodb.Client, name string) error {
	ctx, cancel := context.WithTimeout(ctx, maxTableWait)
	defer cancel()
	want := TableInput(name)
	_, err := client.CreateTable(ctx, want)
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	desc, err := waitActive(ctx, client, name)
	if err != nil {
		return fmt.Errorf("create table %s: %w", name, err)
	}
	if got, wantDesign := describedDesign(desc), requestedDesign(want); got != wantDesign {
		return fmt.Errorf("table %s exists with another design:\n  have %s\n  want %s", name, got, wantDesign)
	}
	return nil
}

// waitActive polls the table until it and its indexes are active.
func waitActive(ctx context.Context, client *dynamodb.Client, name string) (*types.TableDescription, error) {
	delay := 25 * time.Millisecond
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			return nil, fmt.Errorf("describe: %w", err)
		}
		t := out.Table
		switch t.TableStatus {
		case types.TableStatusActive:
			ready := true
			for _, g := range t.GlobalSecondaryIndexes {
				ready = ready && g.IndexStatus == types.IndexStatusActive
			}
			if ready {
				return t, nil
			}
		case types.TableStatusCreating, types.TableStatusUpdating:
		default:
			return nil, fmt.Errorf("table is %s", t.TableStatus)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the table to become active (%s): %w", t.TableStatus, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 2*time.Second)
	}
}

// A design is a table's keys and indexes as one comparable string.
func design(keys []types.KeySchemaElement, attrs []types.AttributeDefinition, gsis []string) string {
	var b strings.Builder
	b.WriteString("keys")
	for _, k := range keys {
		fmt.Fprintf(&b, " %s:%s", aws.ToString(k.AttributeName), k.KeyType)
	}
	var as []string
	for _, a := range attrs {
		as = append(as, aws.ToString(a.AttributeName)+":"+string(a.AttributeType))
	}
	slices.Sort(as)
	slices.Sort(gsis)
	fmt.Fprintf(&b, "; attributes %s; indexes %s", strings.Join(as, " "), strings.Join(gsis, ", "))
	return b.String()
}

func gsiDesign(name *string, keys []types.KeySchemaElement, p *types.Projection) string {
	s := aws.ToString(name) + "("
	for i, k := range keys {
		if i > 0 {
			s += " "
		}
		s += aws.ToString(k.AttributeName) + ":" + string(k.KeyType)
	}
	if p != nil {
		s += " " + string(p.ProjectionType)
	}
	return s + ")"
}

func requestedDesign(in *dynamodb.CreateTableInput) string {
	var gsis []string
	for _, g := range in.GlobalSecondaryIndexes {
		gsis = append(gsis, gsiDesign(g.IndexName, g.KeySchema, g.Projection))
	}
	return design(in.KeySchema, in.AttributeDefinitions, gsis)
}

func describedDesign(t *types.TableDescription) string {
	var gsis []string
	for _, g := range t.GlobalSecondaryIndexes {
		gsis = append(gsis, gsiDesign(g.IndexName, g.KeySchema, g.Projection))
	}
	return design(t.KeySchema, t.AttributeDefinitions, gsis)
}
