package scenarios_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every command the examples give (`--scenarios DIR … --scenario NAME`, in
// their READMEs and in the comments of their files) names a folder that
// exists and a scenario one of its files defines: a user pasting the
// command gets the scenario, not "no such scenario".
func TestExampleCommandsNameTheirScenarios(t *testing.T) {
	flagDir := regexp.MustCompile(`--scenarios\s+(\S+)`)
	flagName := regexp.MustCompile(`^[\s\\#]*--scenario\s+([A-Za-z0-9_.-]+)`)
	checked := 0
	err := filepath.WalkDir("../docs/examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".yaml")) {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range flagDir.FindAllSubmatchIndex(text, -1) {
			dir := strings.Trim(string(text[m[2]:m[3]]), "`'\"")
			rest := text[m[1]:]
			name := flagName.FindSubmatch(rest)
			if name == nil {
				continue
			}
			checked++
			defines := false
			files, _ := filepath.Glob(filepath.Join("..", dir, "*.yaml"))
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err == nil && regexp.MustCompile(`(?m)^name:\s*`+regexp.QuoteMeta(string(name[1]))+`\s*$`).Match(b) {
					defines = true
				}
			}
			if !defines {
				t.Errorf("%s: --scenarios %s --scenario %s: no file of %s defines that scenario (%d files)", path, dir, name[1], dir, len(files))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 2 {
		t.Errorf("%d commands found in docs/examples, want the RealWorld and the full-stack template ones", checked)
	}
}
