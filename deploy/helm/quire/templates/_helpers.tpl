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

{{/* The API container, the same whichever store it uses (the pod's volumes: data, config). */}}
{{- define "quire.apiContainers" -}}
containers:
  - name: api
    image: {{ include "quire.image" . | quote }}
    imagePullPolicy: {{ .Values.image.pullPolicy }}
    args: ["serve", "--listen", "0.0.0.0:{{ .Values.api.port }}"]
    env:
      - name: QUIRE_DATA_DIR
        value: /var/lib/quire
      - name: QUIRE_CONFIG
        value: /etc/quire/quire.toml
      - name: QUIRE_DEPLOYMENT__TYPE
        value: {{ .Values.deployment.type | quote }}
      {{- range $feature := list "search" "assistant" "analytics" }}
      {{- $value := index $.Values.features $feature }}
      {{- if not (kindIs "invalid" $value) }}
      - name: QUIRE_DEPLOYMENT__{{ upper $feature }}
        value: {{ $value | toString | quote }}
      {{- end }}
      {{- end }}
      {{- if .Values.api.database.existingSecret }}
      - name: QUIRE_DATABASE__URL
        valueFrom:
          secretKeyRef:
            name: {{ .Values.api.database.existingSecret }}
            key: {{ .Values.api.database.key }}
      {{- end }}
      {{- if .Values.api.s3.enabled }}
      - name: QUIRE_STORAGE__BACKEND
        value: s3
      - name: QUIRE_STORAGE__ENDPOINT
        value: {{ .Values.api.s3.endpoint | quote }}
      - name: QUIRE_STORAGE__BUCKET
        value: {{ .Values.api.s3.bucket | quote }}
      - name: QUIRE_STORAGE__REGION
        value: {{ .Values.api.s3.region | quote }}
      - name: QUIRE_STORAGE__ACCESS_KEY_ID
        valueFrom:
          secretKeyRef:
            name: {{ required "api.s3.existingSecret is required with api.s3.enabled" .Values.api.s3.existingSecret }}
            key: access-key-id
      - name: QUIRE_STORAGE__SECRET_ACCESS_KEY
        valueFrom:
          secretKeyRef:
            name: {{ .Values.api.s3.existingSecret }}
            key: secret-access-key
      {{- end }}
    ports:
      - name: http
        containerPort: {{ .Values.api.port }}
        protocol: TCP
    readinessProbe:
      httpGet: {path: /readyz, port: http}
      periodSeconds: 5
    livenessProbe:
      httpGet: {path: /healthz, port: http}
      periodSeconds: 10
    resources:
      {{- toYaml .Values.api.resources | nindent 6 }}
    volumeMounts:
      - name: data
        mountPath: /var/lib/quire
      - name: config
        mountPath: /etc/quire
        readOnly: true
{{- end -}}
