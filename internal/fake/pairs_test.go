package fake

import (
	"encoding/json"
	"testing"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/moviemock/moviemock/internal/spec"
)

// pairsDoc has a task naming its bucket twice, as Go and ORM models do:
// bucket_id and the bucket itself; and a project_id whose project's id is
// a string, which is not paired.
const pairsDoc = `{"openapi":"3.0.3","info":{"title":"pairs","version":"1"},"paths":{},
"components":{"schemas":{
  "Bucket":{"type":"object","properties":{"id":{"type":"integer"},"title":{"type":"string"}}},
  "Project":{"type":"object","properties":{"id":{"type":"string"}}},
  "Task":{"type":"object","properties":{
    "bucket":{"$ref":"#/components/schemas/Bucket"},
    "bucket_id":{"type":"integer"},
    "project":{"$ref":"#/components/schemas/Project"},
    "project_id":{"type":"integer"},
    "id":{"type":"integer"}}}}}}`

// An object holding x_id and an object x whose id is planned alike is
// written with x.id equal to x_id, in every value; a pair of other plans
// is left alone.
func TestIDPairsAgree(t *testing.T) {
	t.Parallel()
	sp, err := spec.Load([]byte(pairsDoc), "pairs.json")
	if err != nil {
		t.Fatal(err)
	}
	g := New(sp)
	ref := sp.Doc.Components.Schemas["Task"]
	paired := 0
	for seed := uint64(1); seed <= 100; seed++ {
		raw := g.Append(nil, gofakeit.New(seed), "task", ref)
		var task struct {
			Bucket *struct {
				ID *json.Number `json:"id"`
			} `json:"bucket"`
			BucketID *json.Number `json:"bucket_id"`
		}
		if err := json.Unmarshal(raw, &task); err != nil {
			t.Fatalf("seed %d: %s: %v", seed, raw, err)
		}
		if task.Bucket == nil || task.Bucket.ID == nil || task.BucketID == nil {
			continue
		}
		paired++
		if *task.Bucket.ID != *task.BucketID {
			t.Errorf("seed %d: bucket_id %s, bucket.id %s: %s", seed, *task.BucketID, *task.Bucket.ID, raw)
		}
	}
	if paired == 0 {
		t.Fatal("no value had both bucket_id and bucket.id")
	}
	plan := g.plan(ref, "task")
	if got := len(plan.obj.pairs); got != 1 {
		t.Errorf("%d pairs planned, want bucket's alone (project's id is a string, project_id an integer)", got)
	}
}
