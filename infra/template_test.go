package infra_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/galleydocs/galley/shared/testenv"

	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/families"
	"github.com/galleydocs/galley/shared/httpapi"
	"github.com/galleydocs/galley/shared/metrics"
	"github.com/galleydocs/galley/shared/search"
)

// The repository root, from this package's folder.
const root = ".."

// template is the part of template.yaml these tests read. Values that may be
// intrinsic functions (!Ref, {"Ref": ...}) are kept as nodes.
type template struct {
	Transform  string `yaml:"Transform"`
	Parameters map[string]struct {
		Default       string   `yaml:"Default"`
		AllowedValues []string `yaml:"AllowedValues"`
	} `yaml:"Parameters"`
	Globals   globals              `yaml:"Globals"`
	Resources map[string]resource  `yaml:"Resources"`
	Outputs   map[string]yaml.Node `yaml:"Outputs"`
}

type globals struct {
	Function struct {
		Runtime       string    `yaml:"Runtime"`
		Architectures []string  `yaml:"Architectures"`
		Handler       string    `yaml:"Handler"`
		Tracing       yaml.Node `yaml:"Tracing"`
		Environment   struct {
			Variables map[string]yaml.Node `yaml:"Variables"`
		} `yaml:"Environment"`
	} `yaml:"Function"`
}

type resource struct {
	Type       string            `yaml:"Type"`
	Condition  string            `yaml:"Condition"`
	Metadata   map[string]string `yaml:"Metadata"`
	Properties yaml.Node         `yaml:"Properties"`
}

type function struct {
	CodeUri  string                 `yaml:"CodeUri"`
	Policies []map[string]yaml.Node `yaml:"Policies"`
	Events   map[string]struct {
		Type       string `yaml:"Type"`
		Properties struct {
			ApiId  yaml.Node `yaml:"ApiId"`
			Method string    `yaml:"Method"`
			Path   string    `yaml:"Path"`
		} `yaml:"Properties"`
	} `yaml:"Events"`
}

// tableDesign is what infra/table.json and the template's table must agree
// on (the table's name is the stack's own, so it is left out).
type tableDesign struct {
	AttributeDefinitions []struct {
		AttributeName string `json:"AttributeName" yaml:"AttributeName"`
		AttributeType string `json:"AttributeType" yaml:"AttributeType"`
	} `json:"AttributeDefinitions" yaml:"AttributeDefinitions"`
	KeySchema              []keyElement `json:"KeySchema" yaml:"KeySchema"`
	GlobalSecondaryIndexes []struct {
		IndexName  string       `json:"IndexName" yaml:"IndexName"`
		KeySchema  []keyElement `json:"KeySchema" yaml:"KeySchema"`
		Projection struct {
			ProjectionType   string   `json:"ProjectionType" yaml:"ProjectionType"`
			NonKeyAttributes []string `json:"NonKeyAttributes,omitempty" yaml:"NonKeyAttributes"`
		} `json:"Projection" yaml:"Projection"`
	} `json:"GlobalSecondaryIndexes" yaml:"GlobalSecondaryIndexes"`
	LocalSecondaryIndexes []any  `json:"LocalSecondaryIndexes,omitempty" yaml:"LocalSecondaryIndexes"`
	BillingMode           string `json:"BillingMode" yaml:"BillingMode"`
}

type keyElement struct {
	AttributeName string `json:"AttributeName" yaml:"AttributeName"`
	KeyType       string `json:"KeyType" yaml:"KeyType"`
}

func readTemplate(t *testing.T) template {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var tpl template
	if err := yaml.Unmarshal(raw, &tpl); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	return tpl
}

func decode[T any](t *testing.T, name string, n yaml.Node) T {
	t.Helper()
	var v T
	if err := n.Decode(&v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// ref returns the logical id a node refers to with !Ref x or {"Ref": x}.
func ref(n yaml.Node) string {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!Ref":
		return n.Value
	case n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "Ref":
		return n.Content[1].Value
	}
	return ""
}

func resourcesOfType(tpl template, typ string) []string {
	var ids []string
	for id, r := range tpl.Resources {
		if r.Type == typ {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

func TestTemplateBasics(t *testing.T) {
	tpl := readTemplate(t)
	if tpl.Transform != "AWS::Serverless-2016-10-31" {
		t.Errorf("Transform = %q", tpl.Transform)
	}
	g := tpl.Globals.Function
	if g.Runtime != "provided.al2023" || g.Handler != "bootstrap" || !reflect.DeepEqual(g.Architectures, []string{"arm64"}) {
		t.Errorf("Globals.Function: Runtime %q, Handler %q, Architectures %v; want provided.al2023, bootstrap, [arm64]",
			g.Runtime, g.Handler, g.Architectures)
	}
	// The variables app.ConfigFromEnv reads in AWS mode.
	vars := g.Environment.Variables
	for name, want := range map[string]string{"TABLE_NAME": "Table", "BUCKET_NAME": "BlobBucket", "LOG_LEVEL": "LogLevel",
		"API_URL": "ApiUrl", "APP_URL": "AppUrl"} {
		if got := ref(vars[name]); got != want {
			t.Errorf("Globals environment %s refers to %q, want %q", name, got, want)
		}
	}
	if ids := resourcesOfType(tpl, "AWS::Serverless::HttpApi"); !reflect.DeepEqual(ids, []string{"GalleyApi"}) {
		t.Errorf("HttpApi resources: %v, want [GalleyApi]", ids)
	}
	if _, ok := tpl.Outputs["ApiUrl"]; !ok {
		t.Error("no ApiUrl output")
	}
}

// Every family has its function, every function is a family's, and each
// function is built by the Makefile from functions/<family>.
func TestTemplateFunctionsAreFamilies(t *testing.T) {
	tpl := readTemplate(t)
	var want []string
	for _, f := range families.All() {
		want = append(want, f.Function)
		if _, err := os.Stat(filepath.Join(root, "functions", f.Name, "main.go")); err != nil {
			t.Errorf("family %s: %v", f.Name, err)
		}
		r, ok := tpl.Resources[f.Function]
		if !ok {
			t.Errorf("family %s: no resource %s in template.yaml", f.Name, f.Function)
			continue
		}
		if r.Type != "AWS::Serverless::Function" {
			t.Errorf("%s: Type %s, want AWS::Serverless::Function", f.Function, r.Type)
		}
		if r.Metadata["BuildMethod"] != "makefile" {
			t.Errorf("%s: Metadata.BuildMethod %q, want makefile", f.Function, r.Metadata["BuildMethod"])
		}
		fn := decode[function](t, f.Function, r.Properties)
		if fn.CodeUri != "." {
			t.Errorf("%s: CodeUri %q, want . (the repository root, where the Makefile is)", f.Function, fn.CodeUri)
		}
		policies := map[string]string{}
		for _, p := range fn.Policies {
			for name, args := range p {
				for _, arg := range []string{"TableName", "BucketName"} {
					if v := args.Content; len(v) == 2 && v[0].Value == arg {
						policies[name] = ref(*v[1])
					}
				}
			}
		}
		// Which policies each function has: TestTemplatePoliciesAreLeastPrivilege.
		for name, target := range policies {
			want := map[string]string{"DynamoDBCrudPolicy": "Table", "DynamoDBReadPolicy": "Table", "S3CrudPolicy": "BlobBucket", "S3ReadPolicy": "BlobBucket"}[name]
			if target != want {
				t.Errorf("%s: %s on %q, want on %q", f.Function, name, target, want)
			}
		}
	}
	// Workers serve no routes; TestTemplateWorkers checks them.
	for _, w := range app.Workers() {
		want = append(want, w.Function)
	}
	sort.Strings(want)
	if got := resourcesOfType(tpl, "AWS::Serverless::Function"); !reflect.DeepEqual(got, want) {
		t.Errorf("serverless functions %v, want one per family and per worker: %v", got, want)
	}
}

func routeString(method, path string) string { return method + " " + path }

// Each function declares exactly the routes its family serves.
func TestTemplateRoutesMatchCode(t *testing.T) {
	tpl := readTemplate(t)
	declaredBy := map[string]string{} // route -> function, across the API
	for _, f := range families.Functions() {
		r, ok := tpl.Resources[f.Function]
		if !ok {
			continue // reported by TestTemplateFunctionsAreFamilies
		}
		fn := decode[function](t, f.Function, r.Properties)

		served := map[string]httpapi.Route{}
		for _, route := range f.Routes {
			key := routeString(route.Method, families.GatewayPath(route.Path))
			if prev, dup := served[key]; dup {
				t.Errorf("%s: %s %s and %s %s are one API Gateway route, %s", f.Function, prev.Method, prev.Path, route.Method, route.Path, key)
			}
			served[key] = route
		}
		declared := map[string]string{} // route -> event name
		for name, ev := range fn.Events {
			if ev.Type != "HttpApi" {
				continue
			}
			p := ev.Properties
			key := routeString(p.Method, p.Path)
			if other, dup := declared[key]; dup {
				t.Errorf("%s: events %s and %s both declare %s", f.Function, other, name, key)
			}
			declared[key] = name
			if other, dup := declaredBy[key]; dup {
				t.Errorf("%s and %s both declare %s", other, f.Function, key)
			}
			declaredBy[key] = f.Function
			if got := ref(p.ApiId); got != "GalleyApi" {
				t.Errorf("%s event %s: ApiId refers to %q, want GalleyApi", f.Function, name, got)
			}
			route, ok := served[key]
			if !ok {
				t.Errorf("%s declares %s (event %s), which the %s family does not serve", f.Function, key, name, f.Family)
				continue
			}
			if want := families.EventName(route); name != want {
				t.Errorf("%s: the event for %s is named %s, want %s", f.Function, key, name, want)
			}
		}
		var missing []string
		for key := range served {
			if _, ok := declared[key]; !ok {
				missing = append(missing, key)
			}
		}
		sort.Strings(missing)
		for _, key := range missing {
			t.Errorf("%s does not declare %s, which the %s family serves", f.Function, key, f.Family)
		}
	}
	if t.Failed() {
		t.Log("regenerate the Events sections with: go run ./functions/routes -write template.yaml")
	}
}

// The generated Events sections are what the generator writes (names,
// order and layout), so regenerating changes nothing.
func TestTemplateRoutesGenerated(t *testing.T) {
	path := filepath.Join(root, "template.yaml")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := families.WriteRoutes(raw, families.Functions())
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(raw) {
		t.Error("template.yaml's Events sections are stale: run go run ./functions/routes -write template.yaml")
	}
}

var pathParam = regexp.MustCompile(`^\{[A-Za-z_][A-Za-z0-9_]*\+?\}$`)

// API Gateway routes by path template: a parameter must be a whole segment,
// and routes that share a prefix must name its parameters alike, or
// /v1/spaces/{spaceId} and /v1/spaces/{id}/x would be ambiguous.
func TestRoutePathsSuitAPIGateway(t *testing.T) {
	names := map[string]string{} // prefix with parameters as {} -> parameter name
	for _, f := range families.Functions() {
		for _, r := range f.Routes {
			if !strings.HasPrefix(r.Path, "/") {
				t.Errorf("%s: %s %s: path must start with /", f.Function, r.Method, r.Path)
			}
			var prefix []string
			segs := strings.Split(families.GatewayPath(r.Path), "/")[1:]
			for i, seg := range segs {
				if strings.ContainsAny(seg, "{}") {
					if !pathParam.MatchString(seg) {
						t.Errorf("%s: %s %s: segment %q is not a {name} parameter", f.Function, r.Method, r.Path, seg)
					}
					// A greedy parameter ({name+}: the rest of the path) can
					// only end a route.
					if strings.HasSuffix(seg, "+}") && i != len(segs)-1 {
						t.Errorf("%s: %s %s: greedy %s is not the last segment", f.Function, r.Method, r.Path, seg)
					}
					key := strings.Join(prefix, "/")
					if prev, ok := names[key]; ok && prev != seg {
						t.Errorf("%s: %s %s: parameter %s where other routes have %s", f.Function, r.Method, r.Path, seg, prev)
					}
					names[key] = seg
					seg = "{}"
				}
				prefix = append(prefix, seg)
			}
		}
	}
}

// The table is exactly the design of infra/table.json, with point-in-time
// recovery and encryption.
func TestTemplateTableMatchesDesign(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(root, "infra", "table.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want tableDesign
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("infra/table.json: %v", err)
	}
	tpl := readTemplate(t)
	tables := resourcesOfType(tpl, "AWS::DynamoDB::Table")
	if !reflect.DeepEqual(tables, []string{"Table"}) {
		t.Fatalf("DynamoDB tables %v, want [Table]", tables)
	}
	props := tpl.Resources["Table"].Properties
	got := decode[tableDesign](t, "Table", props)
	// Order does not matter to DynamoDB or CloudFormation.
	for _, d := range []*tableDesign{&got, &want} {
		sort.Slice(d.AttributeDefinitions, func(i, j int) bool {
			return d.AttributeDefinitions[i].AttributeName < d.AttributeDefinitions[j].AttributeName
		})
		sort.Slice(d.GlobalSecondaryIndexes, func(i, j int) bool {
			return d.GlobalSecondaryIndexes[i].IndexName < d.GlobalSecondaryIndexes[j].IndexName
		})
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		w, _ := json.MarshalIndent(want, "", "  ")
		t.Errorf("template.yaml's Table differs from infra/table.json:\n got %s\nwant %s", g, w)
	}
	var extra struct {
		PITR struct {
			Enabled bool `yaml:"PointInTimeRecoveryEnabled"`
		} `yaml:"PointInTimeRecoverySpecification"`
		SSE struct {
			Enabled bool `yaml:"SSEEnabled"`
		} `yaml:"SSESpecification"`
	}
	if err := props.Decode(&extra); err != nil {
		t.Fatal(err)
	}
	if !extra.PITR.Enabled || !extra.SSE.Enabled {
		t.Errorf("Table: point-in-time recovery %v, encryption %v; want both", extra.PITR.Enabled, extra.SSE.Enabled)
	}
}

func TestTemplateBucketIsPrivate(t *testing.T) {
	tpl := readTemplate(t)
	var b struct {
		Encryption struct {
			Rules []map[string]any `yaml:"ServerSideEncryptionConfiguration"`
		} `yaml:"BucketEncryption"`
		Block map[string]bool `yaml:"PublicAccessBlockConfiguration"`
	}
	bucket := tpl.Resources["BlobBucket"]
	if bucket.Type != "AWS::S3::Bucket" {
		t.Fatal("no AWS::S3::Bucket BlobBucket")
	}
	if err := bucket.Properties.Decode(&b); err != nil {
		t.Fatal(err)
	}
	if len(b.Encryption.Rules) == 0 {
		t.Error("BlobBucket: no default encryption")
	}
	for _, k := range []string{"BlockPublicAcls", "BlockPublicPolicy", "IgnorePublicAcls", "RestrictPublicBuckets"} {
		if !b.Block[k] {
			t.Errorf("BlobBucket: PublicAccessBlockConfiguration.%s is not true", k)
		}
	}
}

// alarm is what the tests read of a CloudWatch alarm's properties.
type alarm struct {
	Namespace  string `yaml:"Namespace"`
	MetricName string `yaml:"MetricName"`
	Dimensions []struct {
		Name  string    `yaml:"Name"`
		Value yaml.Node `yaml:"Value"`
	} `yaml:"Dimensions"`
}

// The API's 5xx, each function's errors and throttles, and each stage of
// the search index errors metric have an alarm.
func TestTemplateAlarms(t *testing.T) {
	tpl := readTemplate(t)
	have := map[string]bool{} // "namespace metric dimension=ref"
	for _, id := range resourcesOfType(tpl, "AWS::CloudWatch::Alarm") {
		a := decode[alarm](t, id, tpl.Resources[id].Properties)
		for _, d := range a.Dimensions {
			v := ref(d.Value)
			if v == "" && d.Value.Kind == yaml.ScalarNode && d.Value.Tag == "!!str" {
				v = d.Value.Value // a literal dimension value
			}
			have[fmt.Sprintf("%s %s %s=%s", a.Namespace, a.MetricName, d.Name, v)] = true
		}
	}
	want := []string{"AWS/ApiGateway 5xx ApiId=GalleyApi"}
	for _, f := range families.All() {
		want = append(want,
			"AWS/Lambda Errors FunctionName="+f.Function,
			"AWS/Lambda Throttles FunctionName="+f.Function)
	}
	for _, stage := range search.IndexErrorStages() {
		want = append(want, metrics.Namespace+" "+search.IndexErrorsMetric+" Stage="+stage)
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("no alarm on %s", w)
		}
	}
}

// `sam build` runs `make build-<Function>` for each function: the Makefile
// has one for each family, building functions/<family>.
func TestMakefileBuildsEveryFunction(t *testing.T) {
	makePath, err := exec.LookPath("make")
	if err != nil {
		testenv.Missing(t, "make (GNU make, which builds the functions as sam build does)")
		return
	}
	for _, f := range families.All() {
		cmd := exec.Command(makePath, "--no-print-directory", "-n", "-C", root, "build-"+f.Function, "ARTIFACTS_DIR=/artifacts")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("make -n build-%s: %v\n%s", f.Function, err, out)
			continue
		}
		for _, want := range []string{"GOOS=linux GOARCH=arm64 CGO_ENABLED=0", "-tags lambda.norpc", "-o /artifacts/bootstrap ./functions/" + f.Name + "\n"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("make -n build-%s does not contain %q:\n%s", f.Function, want, out)
			}
		}
	}
}
