// chart-render: `helm template` for the subset of helm the Switchboard chart uses, built from
// text/template and sprig as helm's engine is (helm itself is not installable on CI machines).
//
//	chart-render [-f values.yaml]... [-name release] [-namespace ns] [-notes] CHART_DIR
//
// Implements: values.yaml coalesced with -f files (later wins, null deletes a key), .Values,
// .Release, .Chart, .Capabilities (KubeVersion, APIVersions.Has), .Template, .Files.Get, helm's
// functions include, tpl, required, toYaml, toJson and sprig's (without env and
// expandenv), missingkey=zero with "<no value>" removed, partials (_*.tpl) not rendered, and the
// output helm prints: every document, in helm's install order with hooks last, as
// "---\n# Source: <chart>/templates/<file>". A document that is not YAML, or lacks apiVersion,
// kind or metadata.name, is an error, as on install.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"

	sprig "github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"
)

type fileList []string

func (f *fileList) String() string     { return strings.Join(*f, ",") }
func (f *fileList) Set(v string) error { *f = append(*f, v); return nil }

// Files is .Files: the chart's files outside templates/.
type Files map[string][]byte

func (f Files) Get(name string) string { return string(f[name]) }

// APIVersions is .Capabilities.APIVersions: what `helm template` assumes without a cluster.
type APIVersions []string

func (a APIVersions) Has(v string) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

func main() {
	var valueFiles fileList
	flag.Var(&valueFiles, "f", "values file merged over values.yaml (repeatable)")
	release := flag.String("name", "switchboard", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	notes := flag.Bool("notes", false, "print NOTES.txt after the manifests")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: chart-render [-f values.yaml]... [-name R] [-namespace N] [-notes] CHART_DIR")
		os.Exit(2)
	}
	out, err := render(flag.Arg(0), valueFiles, *release, *namespace, *notes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(out)
}

func readYAML(file string) (map[string]interface{}, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	values := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &values); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return values, nil
}

// coalesce merges override onto base as helm does: maps merge, anything else replaces, null deletes.
func coalesce(base, override map[string]interface{}) map[string]interface{} {
	out := map[string]interface{}{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range override {
		if v == nil {
			delete(out, k)
			continue
		}
		b, bok := out[k].(map[string]interface{})
		o, ook := v.(map[string]interface{})
		if bok && ook {
			out[k] = coalesce(b, o)
		} else {
			out[k] = v
		}
	}
	return out
}

// chartMetadata is .Chart: Chart.yaml with helm's field names (name → Name, apiVersion → APIVersion).
func chartMetadata(raw map[string]interface{}) map[string]interface{} {
	meta := map[string]interface{}{}
	for k, v := range raw {
		name := strings.ToUpper(k[:1]) + k[1:]
		if k == "apiVersion" {
			name = "APIVersion"
		}
		meta[name] = v
	}
	return meta
}

func loadFiles(chartDir string) (templates map[string]string, files Files, err error) {
	templates = map[string]string{}
	files = Files{}
	err = filepath.WalkDir(chartDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(chartDir, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(rel, "templates/") {
			templates[rel] = string(data)
		} else {
			files[rel] = data
		}
		return nil
	})
	return templates, files, err
}

func funcMap(t *template.Template, includeDepth map[string]int) template.FuncMap {
	f := sprig.TxtFuncMap()
	delete(f, "env")
	delete(f, "expandenv")
	f["toYaml"] = func(v interface{}) string {
		data, err := yaml.Marshal(v)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(string(data), "\n")
	}
	f["toJson"] = func(v interface{}) string {
		data, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(data)
	}
	f["required"] = func(warn string, v interface{}) (interface{}, error) {
		if v == nil {
			return v, errors.New(warn)
		}
		if s, ok := v.(string); ok && s == "" {
			return v, errors.New(warn)
		}
		return v, nil
	}
	f["include"] = func(name string, data interface{}) (string, error) {
		// helm's guard against a template that includes itself forever.
		if includeDepth[name] > 1000 {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		includeDepth[name]++
		defer func() { includeDepth[name]-- }()
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	f["tpl"] = func(text string, data interface{}) (string, error) {
		clone, err := t.Clone()
		if err != nil {
			return "", err
		}
		parsed, err := clone.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := parsed.Execute(&buf, data); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	return f
}

type manifest struct {
	source  string
	content string
	kind    string
	hook    bool
}

// helm's InstallOrder (pkg/releaseutil/kind_sorter.go).
var installOrder = []string{
	"PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange", "PodSecurityPolicy",
	"PodDisruptionBudget", "ServiceAccount", "Secret", "SecretList", "ConfigMap", "StorageClass",
	"PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole",
	"ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role", "RoleList", "RoleBinding",
	"RoleBindingList", "Service", "DaemonSet", "Pod", "ReplicationController", "ReplicaSet", "Deployment",
	"HorizontalPodAutoscaler", "StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService",
}

func orderOf(kind string) int {
	for i, k := range installOrder {
		if k == kind {
			return i
		}
	}
	return len(installOrder)
}

var separator = regexp.MustCompile(`(?:^|\s*\n)---\s*`)

func splitManifests(source, rendered string) ([]manifest, error) {
	var out []manifest
	for _, doc := range separator.Split(rendered, -1) {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name        string            `json:"name"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
		}
		var anything interface{}
		if err := yaml.Unmarshal([]byte(doc), &anything); err != nil {
			return nil, fmt.Errorf("YAML parse error on %s: %w", source, err)
		}
		if err := yaml.Unmarshal([]byte(doc), &head); err != nil {
			return nil, fmt.Errorf("YAML parse error on %s: %w", source, err)
		}
		if head.APIVersion == "" || head.Kind == "" || head.Metadata.Name == "" {
			return nil, fmt.Errorf("%s: a document without apiVersion, kind or metadata.name", source)
		}
		_, hook := head.Metadata.Annotations["helm.sh/hook"]
		out = append(out, manifest{source: source, content: strings.TrimSpace(doc), kind: head.Kind, hook: hook})
	}
	return out, nil
}

func render(chartDir string, valueFiles []string, release, namespace string, withNotes bool) (string, error) {
	chartYAML, err := readYAML(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return "", err
	}
	chart := chartMetadata(chartYAML)
	chartName, _ := chart["Name"].(string)
	values, err := readYAML(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return "", err
	}
	for _, file := range valueFiles {
		override, err := readYAML(file)
		if err != nil {
			return "", err
		}
		values = coalesce(values, override)
	}
	templates, files, err := loadFiles(chartDir)
	if err != nil {
		return "", err
	}

	t := template.New(chartName)
	t.Option("missingkey=zero")
	t.Funcs(funcMap(t, map[string]int{}))
	names := make([]string, 0, len(templates))
	for rel := range templates {
		names = append(names, rel)
	}
	sort.Strings(names)
	for _, rel := range names {
		if _, err := t.New(path.Join(chartName, rel)).Parse(templates[rel]); err != nil {
			return "", err
		}
	}

	data := func(rel string) map[string]interface{} {
		return map[string]interface{}{
			"Values": values,
			"Release": map[string]interface{}{
				"Name": release, "Namespace": namespace, "Service": "Helm",
				"IsInstall": true, "IsUpgrade": false, "Revision": 1,
			},
			"Chart": chart,
			"Capabilities": map[string]interface{}{
				"KubeVersion": map[string]interface{}{"Version": "v1.30.0", "GitVersion": "v1.30.0", "Major": "1", "Minor": "30"},
				"APIVersions": APIVersions{"v1", "apps/v1", "batch/v1", "policy/v1", "autoscaling/v2", "networking.k8s.io/v1", "rbac.authorization.k8s.io/v1", "coordination.k8s.io/v1", "apiextensions.k8s.io/v1"},
			},
			"Template": map[string]interface{}{"Name": path.Join(chartName, rel), "BasePath": path.Join(chartName, "templates")},
			"Files":    files,
		}
	}
	execute := func(rel string) (string, error) {
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, path.Join(chartName, rel), data(rel)); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}

	var manifests []manifest
	notes := ""
	for _, rel := range names {
		if strings.HasPrefix(path.Base(rel), "_") {
			continue
		}
		rendered, err := execute(rel)
		if err != nil {
			return "", err
		}
		if rel == "templates/NOTES.txt" {
			notes = rendered
			continue
		}
		docs, err := splitManifests(path.Join(chartName, rel), rendered)
		if err != nil {
			return "", err
		}
		manifests = append(manifests, docs...)
	}
	sort.SliceStable(manifests, func(i, j int) bool {
		a, b := manifests[i], manifests[j]
		if a.hook != b.hook {
			return !a.hook
		}
		if orderOf(a.kind) != orderOf(b.kind) {
			return orderOf(a.kind) < orderOf(b.kind)
		}
		if orderOf(a.kind) == len(installOrder) && a.kind != b.kind {
			return a.kind < b.kind
		}
		return false
	})

	var out strings.Builder
	for _, m := range manifests {
		fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", m.source, m.content)
	}
	if withNotes {
		fmt.Fprintf(&out, "\nNOTES:\n%s\n", notes)
	}
	return out.String(), nil
}
