{{/*
Names. fullname is the release name, or release-chart when the release name does not contain the chart's name
(release "cartograph" gives the object names of deploy/rbac: cartograph-broker, cartograph-agent-read, ...).
*/}}
{{- define "cartograph.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "cartograph.fullname" -}}
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

{{/* The component's object name: <fullname>-broker or <fullname>-agent. Argument: (dict "root" $ "component" "broker") */}}
{{- define "cartograph.componentName" -}}
{{- printf "%s-%s" (include "cartograph.fullname" .root) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "cartograph.selectorLabels" -}}
app.kubernetes.io/name: {{ include "cartograph.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "cartograph.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "cartograph.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: cartograph
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "cartograph.serviceAccountName" -}}
{{- $c := index .root.Values .component }}
{{- if $c.serviceAccount.create }}
{{- default (include "cartograph.componentName" .) $c.serviceAccount.name }}
{{- else }}
{{- include "cartograph.required" (list (printf "%s.serviceAccount.name is required when %s.serviceAccount.create is false" .component .component) $c.serviceAccount.name) }}
{{- end }}
{{- end }}

{{- define "cartograph.image" -}}
{{- $c := index .root.Values .component }}
{{- printf "%s:%s" $c.image.repository (default .root.Chart.AppVersion $c.image.tag) }}
{{- end }}

{{/*
The rules of one Role or ClusterRole in a file under files/rbac (copies of deploy/rbac, kept identical by
ChartSourcesTest), so the chart grants exactly what the manifests grant. Argument: (list $ "files/rbac/x.yaml" "ClusterRole" "name").
*/}}
{{- define "cartograph.rulesFrom" -}}
{{- $root := index . 0 }}{{- $file := index . 1 }}{{- $kind := index . 2 }}{{- $name := index . 3 }}
{{- $found := list }}
{{- range $doc := regexSplit "(?m)^---[ \\t]*$" ($root.Files.Get $file) -1 }}
{{- $obj := fromYaml $doc }}
{{- if and (eq (get $obj "kind" | toString) $kind) (eq (dig "metadata" "name" "" $obj) $name) }}
{{- $found = append $found $obj.rules }}
{{- end }}
{{- end }}
{{- if ne (len $found) 1 }}
{{- fail (printf "%s: expected one %s %s, found %d (is the file in the chart?)" $file $kind $name (len $found)) }}
{{- end }}
{{- toYaml (first $found) }}
{{- end }}

{{/* The pod's security context: non-root user 65532 (the images' user), RuntimeDefault seccomp. */}}
{{- define "cartograph.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 65532
runAsGroup: 65532
fsGroup: 65532
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "cartograph.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
Kafka client settings (cartograph.<component>.kafka.*) from <component>.kafka: security.protocol from tls/sasl,
store locations under /etc/cartograph/kafka, passwords as ${ENV} placeholders the service resolves from its
environment (filled from Secrets by cartograph.kafkaEnv). Returns YAML; kafka.config wins.
*/}}
{{- define "cartograph.kafkaSettings" -}}
{{- $k := (index .root.Values .component).kafka }}
{{- $s := dict }}
{{- if and $k.tls.enabled $k.sasl.enabled }}{{- $_ := set $s "security.protocol" "SASL_SSL" }}
{{- else if $k.tls.enabled }}{{- $_ := set $s "security.protocol" "SSL" }}
{{- else if $k.sasl.enabled }}{{- $_ := set $s "security.protocol" "SASL_PLAINTEXT" }}
{{- end }}
{{- if $k.sasl.enabled }}
{{- $module := "" }}
{{- if eq $k.sasl.mechanism "PLAIN" }}{{- $module = "org.apache.kafka.common.security.plain.PlainLoginModule" }}
{{- else if hasPrefix "SCRAM-" $k.sasl.mechanism }}{{- $module = "org.apache.kafka.common.security.scram.ScramLoginModule" }}
{{- else }}{{- fail (printf "%s.kafka.sasl.mechanism %q: the chart writes SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN; for others turn sasl off and set sasl.* under %s.kafka.config" .component $k.sasl.mechanism .component) }}
{{- end }}
{{- $_ := set $s "sasl.mechanism" $k.sasl.mechanism }}
{{- $_ := set $s "sasl.jaas.config" (printf "%s required username=\"%s\" password=\"${KAFKA_SASL_PASSWORD}\";" $module (include "cartograph.required" (list (printf "%s.kafka.sasl.username is required when %s.kafka.sasl.enabled is true" .component .component) $k.sasl.username))) }}
{{- end }}
{{- if $k.tls.enabled }}
{{- with $k.tls.truststore }}
{{- if .secretName }}
{{- $_ := set $s "ssl.truststore.location" (printf "/etc/cartograph/kafka/truststore/%s" .key) }}
{{- $_ := set $s "ssl.truststore.type" .type }}
{{- if .passwordKey }}{{- $_ := set $s "ssl.truststore.password" "${KAFKA_TRUSTSTORE_PASSWORD}" }}{{- end }}
{{- end }}
{{- end }}
{{- with $k.tls.keystore }}
{{- if .secretName }}
{{- $_ := set $s "ssl.keystore.location" (printf "/etc/cartograph/kafka/keystore/%s" .key) }}
{{- $_ := set $s "ssl.keystore.type" .type }}
{{- if .passwordKey }}{{- $_ := set $s "ssl.keystore.password" "${KAFKA_KEYSTORE_PASSWORD}" }}{{- end }}
{{- if .keyPasswordKey }}{{- $_ := set $s "ssl.key.password" "${KAFKA_KEY_PASSWORD}" }}{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml (mergeOverwrite $s ($k.config | default dict)) }}
{{- end }}

{{/* Environment variables carrying the Kafka passwords, each from its Secret by name. */}}
{{- define "cartograph.kafkaEnv" -}}
{{- $k := (index .root.Values .component).kafka }}
{{- if $k.sasl.enabled }}
- name: KAFKA_SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "cartograph.required" (list (printf "%s.kafka.sasl.passwordSecret.name is required when %s.kafka.sasl.enabled is true" .component .component) $k.sasl.passwordSecret.name) }}
      key: {{ $k.sasl.passwordSecret.key }}
{{- end }}
{{- if $k.tls.enabled }}
{{- with $k.tls.truststore }}
{{- if and .secretName .passwordKey }}
- name: KAFKA_TRUSTSTORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .passwordKey }}
{{- end }}
{{- end }}
{{- with $k.tls.keystore }}
{{- if and .secretName .passwordKey }}
- name: KAFKA_KEYSTORE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .passwordKey }}
{{- end }}
{{- if and .secretName .keyPasswordKey }}
- name: KAFKA_KEY_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ .secretName }}
      key: {{ .keyPasswordKey }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{- define "cartograph.kafkaVolumes" -}}
{{- $k := (index .root.Values .component).kafka }}
{{- if $k.tls.enabled }}
{{- with $k.tls.truststore }}{{- if .secretName }}
- name: kafka-truststore
  secret:
    secretName: {{ .secretName }}
    items:
      - key: {{ .key }}
        path: {{ .key }}
{{- end }}{{- end }}
{{- with $k.tls.keystore }}{{- if .secretName }}
- name: kafka-keystore
  secret:
    secretName: {{ .secretName }}
    items:
      - key: {{ .key }}
        path: {{ .key }}
{{- end }}{{- end }}
{{- end }}
{{- end }}

{{- define "cartograph.kafkaVolumeMounts" -}}
{{- $k := (index .root.Values .component).kafka }}
{{- if $k.tls.enabled }}
{{- if $k.tls.truststore.secretName }}
- name: kafka-truststore
  mountPath: /etc/cartograph/kafka/truststore
  readOnly: true
{{- end }}
{{- if $k.tls.keystore.secretName }}
- name: kafka-keystore
  mountPath: /etc/cartograph/kafka/keystore
  readOnly: true
{{- end }}
{{- end }}
{{- end }}

{{/* Probes on Micronaut's health endpoints (open without authentication: AccessFilter). */}}
{{- define "cartograph.probes" -}}
startupProbe:
  httpGet: {path: /health/liveness, port: http}
  periodSeconds: 5
  failureThreshold: 36
livenessProbe:
  httpGet: {path: /health/liveness, port: http}
  periodSeconds: 10
  failureThreshold: 3
readinessProbe:
  httpGet: {path: /health/readiness, port: http}
  periodSeconds: 10
  failureThreshold: 3
{{- end }}

{{/*
A value that must be set: fails with the message when it is empty. Unlike Helm's required, this also fails
helm lint (lint only logs a missing required value). Argument: (list "message" value).
*/}}
{{- define "cartograph.required" -}}
{{- if empty (index . 1) }}
{{- fail (index . 0) }}
{{- end }}
{{- index . 1 }}
{{- end }}
