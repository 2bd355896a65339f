# One image for web, worker and beat; compose.yaml picks the command.
FROM python:3.11-slim
# Debug off unless the environment says otherwise: a container started without
# DJANGO_SECRET_KEY refuses to start, rather than serve debug pages signed with the
# development key.
# The code is read-only for the process (below): `manage.py balance_report` writes to /tmp.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_DEBUG=false \
    BALANCE_REPORT_DIR=/tmp/balance-reports
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY engine ./engine
COPY matches ./matches
COPY league ./league
RUN pip install --no-cache-dir .
COPY . .
RUN DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput
# The code stays root's, readable by all and written by nobody else (modes come from the
# build context as they are): the process that serves it reads it but cannot change it, so
# a flaw in the site cannot rewrite its code, templates or static files. It writes only to
# /tmp (beat's schedule, balance reports) and to its own home outside the code (gunicorn's control socket).
RUN chmod -R a+rX,go-w /app \
    && useradd --system --create-home --home-dir /home/showdown showdown
USER showdown
EXPOSE 8000
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4"]
