{{/* Names, labels and the pieces every workload shares. */}}

{{- define "ephemera.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* ephemera.name: "<fullname>-<component>" (call with dict "root" $ "component" "gateway") */}}
{{- define "ephemera.name" -}}
{{- printf "%s-%s" (include "ephemera.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- /* a component's headless Service (every pod's address: System Health scrapes each replica) */ -}}
{{- define "ephemera.podsName" -}}
{{- printf "%s-pods" (include "ephemera.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "ephemera.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "ephemera.labels" -}}
{{ include "ephemera.selectorLabels" . }}
app.kubernetes.io/part-of: ephemera
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "ephemera.image" -}}
{{- $img := .root.Values.image -}}
{{- printf "%s/%s%s:%s" $img.registry $img.repositoryPrefix .component (default .root.Chart.AppVersion $img.tag) -}}
{{- end -}}

{{/* The Secret holding DATABASE_URL / REDIS_URL: the user's own, or the chart's. */}}
{{- define "ephemera.pgSecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.postgresql.existingSecret -}}
{{- end -}}
{{- define "ephemera.masterKeySecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.messaging.roomMasterKey.existingSecret -}}
{{- end -}}
{{- define "ephemera.s3Secret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.messaging.s3.existingSecret -}}
{{- end -}}
{{- define "ephemera.accountMasterKeySecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.billing.accountMasterKey.existingSecret -}}
{{- end -}}
{{- define "ephemera.adminMasterKeySecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) (index .Values "admin-analytics").adminMasterKey.existingSecret -}}
{{- end -}}
{{- define "ephemera.smtpSecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.billing.smtp.existingSecret -}}
{{- end -}}
{{- define "ephemera.googleSecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.billing.google.existingSecret -}}
{{- end -}}
{{- define "ephemera.stripeSecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.billing.stripe.existingSecret -}}
{{- end -}}
{{- define "ephemera.serviceSecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.serviceSecret.existingSecret -}}
{{- end -}}
{{- define "ephemera.redisSecret" -}}
{{- default (include "ephemera.name" (dict "root" . "component" "secrets")) .Values.redis.existingSecret -}}
{{- end -}}

{{/* Pod-level settings shared by every workload (call with dict "root" $ "component" name). */}}
{{- define "ephemera.podSpecCommon" -}}
{{- $v := .root.Values -}}
serviceAccountName: {{ include "ephemera.name" . }}
automountServiceAccountToken: false
securityContext:
  {{- toYaml $v.podSecurityContext | nindent 2 }}
{{- with $v.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Prometheus scrape annotations for a pod listening on .port */}}
{{- define "ephemera.scrapeAnnotations" -}}
{{- if .root.Values.monitoring.scrapeAnnotations -}}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end -}}
{{- end -}}
