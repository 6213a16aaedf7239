{{/*
The environment of each service container, exactly the variables its src/config.ts declares (docs/configuration.md).
Call with dict "root" $ "component" "<service>".
*/}}
{{- define "ephemera.env" -}}
{{- $root := .root -}}
{{- $cm := include "ephemera.name" (dict "root" $root "component" "config") -}}
{{- $keys := dict
  "room" (list "KAFKA_BROKERS" "EVENT_LOG_NAMESPACE" "SWEEP_INTERVAL_MS" "TRUSTED_PROXIES" "BILLING_URL")
  "messaging" (list "KAFKA_BROKERS" "EVENT_LOG_NAMESPACE" "TRUSTED_PROXIES" "ROOM_URL")
  "presence" (list)
  "admin-analytics" (list "KAFKA_BROKERS" "EVENT_LOG_NAMESPACE" "TRUSTED_PROXIES" "ROOM_URL" "BILLING_URL" "MESSAGING_URL" "SUPERADMIN_EMAIL")
  "billing" (list "KAFKA_BROKERS" "EVENT_LOG_NAMESPACE" "TRUSTED_PROXIES" "ROOM_URL" "MAIL_FROM" "SUPERADMIN_EMAIL" "OIDC_ISSUER" "GOOGLE_CLIENT_ID" "GOOGLE_REDIRECT_URI"
    "STRIPE_API_BASE" "STRIPE_PRICE_PRO" "STRIPE_PRICE_BUSINESS" "PUBLIC_URL" "RENEWAL_REMINDER_INTERVAL_MS")
  "gateway" (list "KAFKA_BROKERS" "EVENT_LOG_NAMESPACE" "ROOM_URL" "MESSAGING_URL" "PRESENCE_URL" "ALLOWED_ORIGINS" "TRUSTED_PROXIES"
    "CALL_RING_TIMEOUT_MS" "STUN_URLS" "TURN_URLS" "TURN_CREDENTIAL_TTL_SECONDS" "BIG_ROOM_SOCKETS" "ONLINE_PAGE_SIZE") -}}
{{- $limits := list -}}
{{- if ne .component "presence" }}{{/* presence counts nothing */}}
{{- range $name, $_ := $root.Values.rateLimits }}{{ $limits = append $limits (printf "RATE_LIMIT_%s" $name) }}{{ end -}}
{{- end }}
- name: PORT
  value: {{ (index $root.Values .component).port | quote }}
- name: METRICS_PORT
  value: {{ (index $root.Values .component).metricsPort | quote }}
{{- with (index $root.Values .component).internalPort }}
# The internal listener: only the services that call this one reach it (networkpolicy.yaml), never the ingress.
- name: INTERNAL_PORT
  value: {{ . | quote }}
{{- end }}
# Every internal call is signed with it and verified by the callee (docs/security.md "Service boundary").
- name: SERVICE_SECRET
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.serviceSecret" $root }}, key: {{ $root.Values.serviceSecret.existingSecretKey }} }
{{- range $key := concat (list "LOG_LEVEL" "OTEL_TRACES_EXPORTER" "METRICS_HOST") (index $keys .component) $limits }}
- name: {{ $key }}
  valueFrom:
    configMapKeyRef: { name: {{ $cm }}, key: {{ $key }} }
{{- end }}
{{- if has .component (list "room" "messaging" "billing" "admin-analytics") }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.pgSecret" $root }}, key: {{ $root.Values.postgresql.existingSecretKey }} }
{{- end }}
{{- if has .component (list "room" "messaging") }}
- name: ROOM_MASTER_KEY
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.masterKeySecret" $root }}, key: {{ $root.Values.messaging.roomMasterKey.existingSecretKey }} }
{{- end }}
{{- if eq .component "messaging" }}
# Uploaded files: the S3 bucket; the credentials (when set) from a Secret.
{{- $s3 := $root.Values.messaging.s3 }}
- name: S3_ENDPOINT
  value: {{ $s3.endpoint | quote }}
- name: S3_BUCKET
  value: {{ $s3.bucket | quote }}
- name: S3_REGION
  value: {{ $s3.region | quote }}
- name: S3_FORCE_PATH_STYLE
  value: {{ $s3.forcePathStyle | toString | quote }}
{{- range $key := list "S3_ACCESS_KEY_ID" "S3_SECRET_ACCESS_KEY" }}
- name: {{ $key }}
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.s3Secret" $root }}, key: {{ $key }}, optional: true }
{{- end }}
{{- end }}
{{- if eq .component "room" }}
# The room data keys (docs/crypto.md); during a rotation the old master keys sit in the same Secret.
- name: ROOM_KEY_DIR
  value: {{ $root.Values.room.keyStore.mountPath | quote }}
- name: ROOM_MASTER_KEYS_PREVIOUS
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.masterKeySecret" $root }}, key: ROOM_MASTER_KEYS_PREVIOUS, optional: true }
{{- end }}
{{- if eq .component "billing" }}
# Accounts: the account keys (docs/crypto.md), the SMTP server, Google's client secret (when Google sign-in is on).
- name: ACCOUNT_KEY_DIR
  value: {{ $root.Values.billing.keyStore.mountPath | quote }}
- name: ACCOUNT_MASTER_KEY
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.accountMasterKeySecret" $root }}, key: {{ $root.Values.billing.accountMasterKey.existingSecretKey }} }
- name: SMTP_URL
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.smtpSecret" $root }}, key: {{ $root.Values.billing.smtp.existingSecretKey }}, optional: true }
- name: GOOGLE_CLIENT_SECRET
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.googleSecret" $root }}, key: {{ $root.Values.billing.google.existingSecretKey }}, optional: true }
# Payments: Stripe's secret key and the webhook's signing secret (optional: without them payments are off).
- name: STRIPE_SECRET_KEY
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.stripeSecret" $root }}, key: {{ $root.Values.billing.stripe.existingSecretKey }}, optional: true }
- name: STRIPE_WEBHOOK_SECRET
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.stripeSecret" $root }}, key: {{ $root.Values.billing.stripe.existingWebhookSecretKey }}, optional: true }
{{- end }}
{{- if eq .component "admin-analytics" }}
# The admin aggregate's key and the backups, each on a volume of this service (docs/crypto.md); the master key wraps
# the key and derives the backups' encryption key.
{{- $admin := index $root.Values "admin-analytics" }}
- name: ADMIN_KEY_DIR
  value: {{ $admin.keyStore.mountPath | quote }}
- name: BACKUP_DIR
  value: {{ $admin.backups.mountPath | quote }}
- name: ADMIN_BACKUP_MAX_BYTES
  value: {{ $admin.backupMaxBytes | int64 | quote }}
- name: ADMIN_AUTO_DELETE_INTERVAL_MS
  value: {{ $admin.autoDeleteIntervalMs | int64 | quote }}
# System Health: every other service's /metrics, through each one's headless "-pods" Service (services.yaml), whose
# name resolves to every pod, so every replica's answers and uptime count (analytics/service-health.ts).
{{- $targets := list }}
{{- range $peer := list "gateway" "room" "messaging" "presence" "billing" }}
{{- $targets = append $targets (printf "http://%s:%d/metrics" (include "ephemera.podsName" (dict "root" $root "component" $peer)) (int (index $root.Values $peer).metricsPort)) }}
{{- end }}
- name: ADMIN_HEALTH_TARGETS
  value: {{ join "," $targets | quote }}
- name: ADMIN_MASTER_KEY
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.adminMasterKeySecret" $root }}, key: {{ $admin.adminMasterKey.existingSecretKey }} }
{{- end }}
{{- /* presence and gateway need Redis; room and messaging share their rate-limit counters through it */}}
- name: REDIS_URL
  valueFrom:
    secretKeyRef: { name: {{ include "ephemera.redisSecret" $root }}, key: {{ $root.Values.redis.existingSecretKey }} }
{{- if eq .component "gateway" }}
# Each replica is its own consumer group and presence source: the pod name is unique and stable for its life.
- name: GATEWAY_ID
  valueFrom:
    fieldRef: { fieldPath: metadata.name }
{{- with $root.Values.calls.turnSecret.existingSecret }}
# The TURN server's shared secret: the gateway mints time-limited TURN credentials with it (docs/deployment.md "TURN").
- name: TURN_SECRET
  valueFrom:
    secretKeyRef: { name: {{ . }}, key: {{ $root.Values.calls.turnSecret.existingSecretKey }} }
{{- end }}
{{- if $root.Values.gateway.httpUpstream }}
- name: HTTP_UPSTREAM
  valueFrom:
    configMapKeyRef: { name: {{ $cm }}, key: HTTP_UPSTREAM }
{{- end }}
{{- end }}
{{- with $root.Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}
