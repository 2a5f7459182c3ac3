"""The executor, chosen by configuration (``CLAIMS_EXECUTOR``), never by code changes."""

from __future__ import annotations

import dagster as dg

from pipeline.settings import PipelineSettings


def executor_for(settings: PipelineSettings) -> dg.ExecutorDefinition:
    """The executor named by ``settings.executor``.

    ``in_process`` is the default; ``multi_or_in_process`` lets each run's config pick
    ``in_process`` or ``multiprocess``; ``celery`` sends each step to Celery workers through
    ``CLAIMS_CELERY_BROKER_URL`` (the ``celery`` extra); ``k8s`` needs dagster-k8s. Their
    libraries must be installed on every machine that loads the code location.
    """
    name = settings.executor
    processes = {"max_concurrent": settings.max_concurrent} if settings.max_concurrent else {}
    if name == "multi_or_in_process":
        # Dagster's own: a run's config picks {"in_process": {}} or {"multiprocess": {...}};
        # without one, a process per step (its default).
        return dg.multi_or_in_process_executor
    if name == "multiprocess":
        return dg.multiprocess_executor.configured(processes)
    if name == "celery":
        # Broker and result backend are one Redis; the workers get the same URL from their
        # -y file (deploy/celery.yaml), which also holds the worker-side Celery options.
        url = settings.celery_broker_url
        celery = _optional("dagster_celery", "celery_executor", name, "'claimledger[celery]'")
        return celery.configured({"broker": url, "backend": url}, name="celery")
    if name == "k8s":
        return _optional("dagster_k8s", "k8s_job_executor", name, "dagster-k8s==0.29.27")
    return dg.in_process_executor


def _optional(module: str, attr: str, name: str, install: str) -> dg.ExecutorDefinition:
    import importlib

    try:
        return getattr(importlib.import_module(module), attr)
    except ImportError as error:
        raise dg.DagsterInvariantViolationError(
            f"CLAIMS_EXECUTOR={name} needs the {module.replace('_', '-')} package "
            f"(pip install -c constraints.txt {install})"
        ) from error
