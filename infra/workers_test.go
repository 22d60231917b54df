package infra_test

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/galleydocs/galley/shared/app"
)

// workerFunction is the part of a worker function's properties these
// tests read.
type workerFunction struct {
	CodeUri     string                 `yaml:"CodeUri"`
	Timeout     int                    `yaml:"Timeout"`
	Policies    []map[string]yaml.Node `yaml:"Policies"`
	Environment struct {
		Variables map[string]yaml.Node `yaml:"Variables"`
	} `yaml:"Environment"`
	Events map[string]struct {
		Type       string `yaml:"Type"`
		Properties struct {
			Queue                 yaml.Node `yaml:"Queue"`
			BatchSize             int       `yaml:"BatchSize"`
			FunctionResponseTypes []string  `yaml:"FunctionResponseTypes"`
		} `yaml:"Properties"`
	} `yaml:"Events"`
}

type sqsQueue struct {
	FifoQueue         bool `yaml:"FifoQueue"`
	VisibilityTimeout int  `yaml:"VisibilityTimeout"`
	SSE               bool `yaml:"SqsManagedSseEnabled"`
	RedrivePolicy     struct {
		DeadLetterTargetArn yaml.Node `yaml:"deadLetterTargetArn"`
		MaxReceiveCount     int       `yaml:"maxReceiveCount"`
	} `yaml:"RedrivePolicy"`
}

// getAtt returns the logical id and attribute of !GetAtt X.Y.
func getAtt(n yaml.Node) (string, string) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!GetAtt" {
		id, attr, _ := strings.Cut(n.Value, ".")
		return id, attr
	}
	return "", ""
}

// Each worker is a function fed by its queue only, reporting failed
// records one by one; its queue has a dead-letter queue and a visibility
// timeout of at least six times the worker's timeout; the worker has the
// storage policies, alarms, and a Makefile target.
func TestTemplateWorkers(t *testing.T) {
	tpl := readTemplate(t)
	globalTimeout := 29
	for _, w := range app.Workers() {
		t.Run(w.Function, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(root, "functions", w.Name, "main.go")); err != nil {
				t.Errorf("worker %s: %v", w.Name, err)
			}
			r, ok := tpl.Resources[w.Function]
			if !ok || r.Type != "AWS::Serverless::Function" || r.Metadata["BuildMethod"] != "makefile" {
				t.Fatalf("no makefile-built AWS::Serverless::Function %s", w.Function)
			}
			fn := decode[workerFunction](t, w.Function, r.Properties)
			if fn.CodeUri != "." {
				t.Errorf("CodeUri %q", fn.CodeUri)
			}
			timeout := fn.Timeout
			if timeout == 0 {
				timeout = globalTimeout
			}
			policies := map[string]string{}
			for _, p := range fn.Policies {
				for name, args := range p {
					if v := args.Content; len(v) == 2 {
						policies[name] = ref(*v[1])
					}
				}
			}
			// The webhook and insights workers store no blobs; workers that queue jobs
			// (webhook deliveries, their retries) send to that queue only.
			want := map[string]string{"DynamoDBCrudPolicy": "Table", "S3CrudPolicy": "BlobBucket"}
			if w.Name == "webhookworker" || w.Name == "insightsworker" {
				delete(want, "S3CrudPolicy")
			}
			if _, ok := policies["SQSSendMessagePolicy"]; ok {
				want["SQSSendMessagePolicy"] = policies["SQSSendMessagePolicy"]
			}
			if !maps.Equal(policies, want) {
				t.Errorf("policies %v, want %v", policies, want)
			}
			if len(fn.Events) != 1 {
				t.Fatalf("%d events, want one SQS event", len(fn.Events))
			}
			for name, ev := range fn.Events {
				q, attr := getAtt(ev.Properties.Queue)
				if ev.Type != "SQS" || q != w.Queue || attr != "Arn" {
					t.Errorf("event %s: %s on %s.%s, want SQS on %s.Arn", name, ev.Type, q, attr, w.Queue)
				}
				if len(ev.Properties.FunctionResponseTypes) != 1 || ev.Properties.FunctionResponseTypes[0] != "ReportBatchItemFailures" {
					t.Errorf("event %s: FunctionResponseTypes %v, want [ReportBatchItemFailures]", name, ev.Properties.FunctionResponseTypes)
				}
				if ev.Properties.BatchSize < 1 || (w.FIFO && ev.Properties.BatchSize > 10) {
					t.Errorf("event %s: BatchSize %d", name, ev.Properties.BatchSize)
				}
			}
			qr, ok := tpl.Resources[w.Queue]
			if !ok || qr.Type != "AWS::SQS::Queue" {
				t.Fatalf("no AWS::SQS::Queue %s", w.Queue)
			}
			q := decode[sqsQueue](t, w.Queue, qr.Properties)
			if q.VisibilityTimeout < 6*timeout {
				t.Errorf("%s: VisibilityTimeout %d, want at least 6 x %d", w.Queue, q.VisibilityTimeout, timeout)
			}
			if q.FifoQueue != w.FIFO || !q.SSE {
				t.Errorf("%s: FifoQueue %v (want %v), SqsManagedSseEnabled %v", w.Queue, q.FifoQueue, w.FIFO, q.SSE)
			}
			dlq, attr := getAtt(q.RedrivePolicy.DeadLetterTargetArn)
			if attr != "Arn" || q.RedrivePolicy.MaxReceiveCount < 1 {
				t.Fatalf("%s: RedrivePolicy %v -> %s.%s", w.Queue, q.RedrivePolicy.MaxReceiveCount, dlq, attr)
			}
			if d, ok := tpl.Resources[dlq]; !ok || d.Type != "AWS::SQS::Queue" || decode[sqsQueue](t, dlq, d.Properties).FifoQueue != w.FIFO {
				t.Errorf("dead-letter queue %s: missing, or not of the queue's kind", dlq)
			}
		})
	}
}

// The functions that enqueue a worker's jobs have its queue's URL and may
// send to it; no other function may.
func TestTemplateQueueSenders(t *testing.T) {
	tpl := readTemplate(t)
	queues := map[string]string{} // env -> queue
	for _, w := range app.Workers() {
		queues[w.QueueEnv] = w.Queue
	}
	for id, r := range tpl.Resources {
		if r.Type != "AWS::Serverless::Function" {
			continue
		}
		fn := decode[workerFunction](t, id, r.Properties)
		sends := map[string]bool{}
		for _, p := range fn.Policies {
			if args, ok := p["SQSSendMessagePolicy"]; ok {
				if v := args.Content; len(v) == 2 {
					q, attr := getAtt(*v[1])
					if attr != "QueueName" {
						t.Errorf("%s: SQSSendMessagePolicy on %s.%s", id, q, attr)
					}
					sends[q] = true
				}
			}
		}
		for env, n := range fn.Environment.Variables {
			if q, ok := queues[env]; ok {
				if ref(n) != q {
					t.Errorf("%s: %s refers to %q, want %s", id, env, ref(n), q)
				}
				if !sends[q] {
					t.Errorf("%s has %s but may not send to %s", id, env, q)
				}
				delete(sends, q)
			}
		}
		for q := range sends {
			t.Errorf("%s may send to %s without its URL", id, q)
		}
	}
}

func TestWorkersHaveAlarmsAndMakeTargets(t *testing.T) {
	tpl := readTemplate(t)
	have := map[string]bool{}
	for _, id := range resourcesOfType(tpl, "AWS::CloudWatch::Alarm") {
		a := decode[alarm](t, id, tpl.Resources[id].Properties)
		for _, d := range a.Dimensions {
			v := ref(d.Value)
			if q, _ := getAtt(d.Value); q != "" {
				v = q
			}
			have[fmt.Sprintf("%s %s %s=%s", a.Namespace, a.MetricName, d.Name, v)] = true
		}
	}
	makePath, err := exec.LookPath("make")
	for _, w := range app.Workers() {
		for _, want := range []string{"AWS/Lambda Errors FunctionName=" + w.Function, "AWS/Lambda Throttles FunctionName=" + w.Function} {
			if !have[want] {
				t.Errorf("no alarm on %s", want)
			}
		}
		var qp sqsQueue
		props := tpl.Resources[w.Queue].Properties
		if err := props.Decode(&qp); err == nil {
			dlq, _ := getAtt(qp.RedrivePolicy.DeadLetterTargetArn)
			if !have["AWS/SQS ApproximateNumberOfMessagesVisible QueueName="+dlq] {
				t.Errorf("no alarm on the messages of %s", dlq)
			}
		}
		if err != nil {
			continue
		}
		out, err := exec.Command(makePath, "--no-print-directory", "-n", "-C", root, "build-"+w.Function, "ARTIFACTS_DIR=/artifacts").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "-o /artifacts/bootstrap ./functions/"+w.Name+"\n") {
			t.Errorf("make -n build-%s: %v\n%s", w.Function, err, out)
		}
	}
}
