{{/* The chart's name, for labels. */}}
{{- define "quire.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Resource names: release-chart, cut to 63 characters. */}}
{{- define "quire.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "quire.labels" -}}
app.kubernetes.io/name: {{ include "quire.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "quire.docsSelector" -}}
app.kubernetes.io/name: {{ include "quire.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: docs-server
{{- end -}}

{{- define "quire.apiSelector" -}}
app.kubernetes.io/name: {{ include "quire.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: api
{{- end -}}

{{- define "quire.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Refuses values the deployment type does not allow, at render time. */}}
{{- define "quire.validate" -}}
{{- $type := .Values.deployment.type -}}
{{- if not (has $type (list "cloud" "client-hosted" "air-gapped")) -}}
{{- fail (printf "deployment.type must be cloud, client-hosted or air-gapped, not %q" $type) -}}
{{- end -}}
{{- if eq $type "air-gapped" -}}
{{- range $feature := list "search" "assistant" "analytics" -}}
{{- if eq (toString (index $.Values.features $feature)) "true" -}}
{{- fail (printf "features.%s cannot be switched on: it is unavailable in air-gapped deployments" $feature) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if and .Values.staticExport.enabled (not .Values.staticExport.bundleUrl) (not .Values.staticExport.version) -}}
{{- fail "staticExport.bundleUrl is required (a static export's bundleUrl), or staticExport.version with a persistent volume that already holds it" -}}
{{- end -}}
{{- end -}}
