package infra_test

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/app/families"
)

// tableAccess is what a function may do with the table.
type tableAccess int

const (
	tableCrud tableAccess = iota
	// tableRead reads, and may only put the installation secret (keys
	// with partition INSTANCE), which the first function to need it makes.
	tableRead
)

// grants are each function's permissions, least privilege (the reasons are
// in docs/functions.md, "Permissions"): the table (every family but search
// writes its records), the blob bucket (only the families that store
// content, indexes, PDFs or specs), and the queues a function enqueues on
// (those named by its *QUEUE_URL variables).
var grants = map[string]struct {
	table tableAccess
	blobs bool
}{
	"users":          {tableCrud, false},
	"orgs":           {tableCrud, false},
	"spaces":         {tableCrud, false},
	"collections":    {tableCrud, false},
	"customfields":   {tableCrud, false},
	"sites":          {tableCrud, false},
	"sso":            {tableCrud, false},
	"content":        {tableCrud, true},
	"changerequests": {tableCrud, true},
	"comments":       {tableCrud, true},
	"search":         {tableRead, true},
	"openapi":        {tableCrud, true},
	"openapiworker":  {tableCrud, true},
	"git":            {tableCrud, true},
	"gitworker":      {tableCrud, true},
	"imports":        {tableCrud, true},
	"reader":         {tableRead, false},
	"webhookworker":  {tableCrud, false},
	"insightsworker": {tableCrud, false},
}

// blobReaders read the bucket without writing it (S3ReadPolicy): the
// reader renders pages whose bodies are stored there.
var blobReaders = map[string]bool{"reader": true}

// Each function's policies name exactly the access of grants: the table
// read-only where it only reads, the bucket only where it stores, queues
// only where it enqueues; nothing else (no wildcard statement).
func TestTemplatePoliciesAreLeastPrivilege(t *testing.T) {
	tpl := readTemplate(t)
	for _, f := range families.All() {
		name := f.Name
		g, ok := grants[name]
		if !ok {
			t.Errorf("function %s (%s) has no entry in grants", f.Function, name)
			continue
		}
		fn := decode[function](t, f.Function, tpl.Resources[f.Function].Properties)
		env := decode[struct {
			Environment struct {
				Variables map[string]any `yaml:"Variables"`
			} `yaml:"Environment"`
		}](t, f.Function, tpl.Resources[f.Function].Properties)
		var kinds []string
		statements := 0
		for _, p := range fn.Policies {
			for kind, node := range p {
				kinds = append(kinds, kind)
				if kind == "Statement" {
					statements++
					var st []struct {
						Effect    string         `yaml:"Effect"`
						Action    any            `yaml:"Action"`
						Condition map[string]any `yaml:"Condition"`
						Resource  any            `yaml:"Resource"`
						Extra     map[string]any `yaml:",inline"`
					}
					if err := node.Decode(&st); err != nil {
						t.Fatalf("%s: statement: %v", f.Function, err)
					}
					for _, s := range st {
						if g.table != tableRead || s.Action != "dynamodb:PutItem" || s.Condition == nil ||
							!strings.Contains(strings.Join(strings.Fields(anyString(s.Condition)), " "), "INSTANCE") {
							t.Errorf("%s: unexpected statement %+v", f.Function, s)
						}
					}
				}
			}
		}
		sort.Strings(kinds)
		var want []string
		switch g.table {
		case tableCrud:
			want = append(want, "DynamoDBCrudPolicy")
		case tableRead:
			want = append(want, "DynamoDBReadPolicy", "Statement")
		}
		if g.blobs {
			want = append(want, "S3CrudPolicy")
		}
		if blobReaders[name] {
			want = append(want, "S3ReadPolicy")
		}
		queues := 0
		for v := range env.Environment.Variables {
			if strings.HasSuffix(v, "QUEUE_URL") {
				queues++
			}
		}
		for range queues {
			want = append(want, "SQSSendMessagePolicy")
		}
		sort.Strings(want)
		if !slices.Equal(kinds, want) {
			t.Errorf("%s's policies are %v, want %v", f.Function, kinds, want)
		}
	}
}

func anyString(v any) string {
	switch x := v.(type) {
	case map[string]any:
		var parts []string
		for k, val := range x {
			parts = append(parts, k+" "+anyString(val))
		}
		sort.Strings(parts)
		return strings.Join(parts, " ")
	case []any:
		var parts []string
		for _, val := range x {
			parts = append(parts, anyString(val))
		}
		return strings.Join(parts, " ")
	case string:
		return x
	default:
		return ""
	}
}

// X-Ray tracing is switchable at deploy time: every function's tracing is
// the Tracing parameter (Active by default, or PassThrough).
func TestTemplateTracingIsAParameter(t *testing.T) {
	tpl := readTemplate(t)
	if got := ref(tpl.Globals.Function.Tracing); got != "Tracing" {
		t.Errorf("Globals.Function.Tracing is %q, want !Ref Tracing", got)
	}
	p, ok := tpl.Parameters["Tracing"]
	if !ok || p.Default != "Active" || !slices.Equal(p.AllowedValues, []string{"Active", "PassThrough"}) {
		t.Errorf("parameter Tracing: %+v", p)
	}
	for _, f := range families.All() {
		var props struct {
			Tracing *string `yaml:"Tracing"`
		}
		props = decode[struct {
			Tracing *string `yaml:"Tracing"`
		}](t, f.Function, tpl.Resources[f.Function].Properties)
		if props.Tracing != nil {
			t.Errorf("%s sets its own Tracing", f.Function)
		}
	}
}
