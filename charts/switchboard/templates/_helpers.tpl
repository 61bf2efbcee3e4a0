{{/* Names are cut to 63 characters, the limit of a DNS label and of a label value. */}}
{{- define "switchboard.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's full name; the release name alone when it already contains the chart's. */}}
{{- define "switchboard.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* A component's object name. Takes (dict "root" . "component" "api"). */}}
{{- define "switchboard.componentName" -}}
{{- printf "%s-%s" (include "switchboard.fullname" .root) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "switchboard.configMapName" -}}
{{- printf "%s-config" (include "switchboard.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "switchboard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "switchboard.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "switchboard.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{/* Selector labels; with a component when given (dict "root" . "component" "api"), else the release's. */}}
{{- define "switchboard.selectorLabels" -}}
{{- $root := .root | default . -}}
app.kubernetes.io/name: {{ include "switchboard.name" $root }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end }}

{{- define "switchboard.labels" -}}
{{- $root := .root | default . -}}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
app.kubernetes.io/part-of: switchboard
{{- end }}

{{/* A ConfigMap value: strings as they are; numbers and booleans as written (never 1e+06). */}}
{{- define "switchboard.envValue" -}}
{{- if kindIs "string" . }}{{ . | quote }}{{ else }}{{ toJson . | quote }}{{ end }}
{{- end }}

{{- define "switchboard.databaseEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "database.existingSecret: name the Secret that holds the Postgres URL" .Values.database.existingSecret }}
      key: {{ .Values.database.secretKey }}
{{- end }}

{{/* Every variable that comes from a Secret. */}}
{{- define "switchboard.secretEnv" -}}
{{ include "switchboard.databaseEnv" . }}
{{- with .Values.redis.existingSecret }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.redis.secretKey }}
{{- end }}
{{- with .Values.encryption.existingSecret }}
- name: SWITCHBOARD_ENCRYPTION_KEY
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.encryption.secretKey }}
{{- end }}
{{- with .Values.model.existingSecret }}
- name: OPENAI_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.model.secretKey }}
{{- end }}
{{- if eq .Values.carrier.name "twilio" }}
- name: TWILIO_AUTH_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ required "carrier.twilio.existingSecret: name the Secret that holds the Twilio auth token" .Values.carrier.twilio.existingSecret }}
      key: {{ .Values.carrier.twilio.secretKey }}
{{- end }}
{{- if eq .Values.carrier.name "telnyx" }}
- name: TELNYX_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ required "carrier.telnyx.existingSecret: name the Secret that holds the Telnyx API key" .Values.carrier.telnyx.existingSecret }}
      key: {{ .Values.carrier.telnyx.secretKey }}
{{- end }}
{{- if .Values.oidc.issuer }}
- name: SWITCHBOARD_OIDC_CLIENT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ required "oidc.existingSecret: name the Secret that holds the OpenID client secret" .Values.oidc.existingSecret }}
      key: {{ .Values.oidc.secretKey }}
{{- end }}
{{- end }}

{{/*
The pod of a long-running component. Takes (dict "root" . "component" "api"|"controllers").
Only the controllers talk to the Kubernetes API, so only they get a service account token.
*/}}
{{- define "switchboard.podSpec" -}}
{{- $root := .root -}}
{{- $values := index $root.Values .component -}}
{{- $preStop := 0 -}}
{{- if eq .component "api" }}{{ $preStop = $values.preStopSleepSeconds }}{{ end -}}
{{- /* A scavenge needs room in the old generation for the whole young one (twice the semi-space): without it V8 collects the whole heap instead, at every scavenge. */}}
{{- if gt (mul 4 (int $values.semiSpaceMB)) (int $values.heapLimitMB) }}
{{- fail (printf "%s.semiSpaceMB (%d) must be at most a quarter of %s.heapLimitMB (%d): the young generation (twice the semi-space) needs half the heap left for what lives, or every scavenge becomes a full collection" .component (int $values.semiSpaceMB) .component (int $values.heapLimitMB)) }}
{{- end }}
serviceAccountName: {{ include "switchboard.serviceAccountName" $root }}
automountServiceAccountToken: {{ eq .component "controllers" }}
# Service links would add an env variable per Service of the namespace to the configuration's.
enableServiceLinks: false
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml $root.Values.podSecurityContext | nindent 2 }}
{{- /* In-flight work gets SWITCHBOARD_SHUTDOWN_GRACE_SEC (the product's default is 25) after SIGTERM, plus a margin. */}}
terminationGracePeriodSeconds: {{ add ($root.Values.config.SWITCHBOARD_SHUTDOWN_GRACE_SEC | default 25) $preStop 5 }}
containers:
  - name: {{ .component }}
    image: {{ include "switchboard.image" $root }}
    imagePullPolicy: {{ $root.Values.image.pullPolicy }}
    args: [{{ .component | quote }}]
    ports:
      - name: http
        containerPort: 8080
        protocol: TCP
      - name: metrics
        containerPort: {{ $root.Values.metrics.port }}
        protocol: TCP
    envFrom:
      - configMapRef:
          name: {{ include "switchboard.configMapName" $root }}
    env:
      - name: NODE_OPTIONS
        value: {{ printf "--max-old-space-size=%d --max-semi-space-size=%d" (int $values.heapLimitMB) (int $values.semiSpaceMB) | quote }}
      {{- include "switchboard.secretEnv" $root | nindent 6 }}
      {{- with $root.Values.extraEnv }}
      {{- toYaml . | nindent 6 }}
      {{- end }}
    startupProbe:
      httpGet:
        path: /healthz
        port: http
      periodSeconds: 2
      failureThreshold: 30
    livenessProbe:
      httpGet:
        path: /healthz
        port: http
      periodSeconds: 10
      timeoutSeconds: 3
      failureThreshold: 3
    readinessProbe:
      httpGet:
        path: /readyz
        port: http
      periodSeconds: 5
      timeoutSeconds: 3
      failureThreshold: 3
    {{- if gt (int $preStop) 0 }}
    lifecycle:
      preStop:
        exec:
          command: ["sleep", {{ $preStop | quote }}]
    {{- end }}
    resources:
      {{- toYaml $values.resources | nindent 6 }}
    securityContext:
      {{- toYaml $root.Values.securityContext | nindent 6 }}
    volumeMounts:
      - name: tmp
        mountPath: /tmp
      {{- with $root.Values.extraVolumeMounts }}
      {{- toYaml . | nindent 6 }}
      {{- end }}
volumes:
  - name: tmp
    emptyDir:
      sizeLimit: 64Mi
  {{- with $root.Values.extraVolumes }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- with $values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $values.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* A component's Deployment. Takes (dict "root" . "component" "api"|"controllers"). */}}
{{- define "switchboard.deployment" -}}
{{- $root := .root -}}
{{- $values := index $root.Values .component -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "switchboard.componentName" . }}
  namespace: {{ $root.Release.Namespace }}
  labels:
    {{- include "switchboard.labels" . | nindent 4 }}
spec:
  {{- if not $values.autoscaling.enabled }}
  replicas: {{ $values.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "switchboard.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "switchboard.selectorLabels" . | nindent 8 }}
        {{- with $values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        # Roll the pods when the configuration changes.
        checksum/config: {{ include (print $root.Template.BasePath "/configmap.yaml") $root | sha256sum }}
        {{- with $values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      {{- include "switchboard.podSpec" . | nindent 6 }}
{{- end }}
