"""Checks of what the performance model needs of a service and finds on each system.

One line per problem, naming the service, the system and the figures: an unknown model,
a precision the hardware lacks, a model that does not fit any allowed scale-up domain,
TTFT or TPOT limits below what any allowed system reaches. A system on which only some
of those fail is left out of the service with a warning; none left is an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geomodel.scenario.serving_rates import service_model, service_rates, token_means

if TYPE_CHECKING:
    from geomodel.scenario.checker import Checker


def check_services(c: Checker) -> None:
    """The services' models, precisions and latency limits against the scenario's systems."""
    installed = sorted(
        {s for site in c.scenario.sites.values() for s in site.most_systems if s in c.catalog.hardware}
    )
    for name, service in c.scenario.inference.items():
        path = ("inference", name)
        if isinstance(service.model, str) and not c.known(
            (*path, "model"), service.model, c.catalog.language_models, "language model"
        ):
            continue
        systems = [s for s in installed if service.systems is None or s in service.systems]
        lacking = [s for s in systems if not c.catalog.hardware_system(s).supports(service.precision)]
        for system in lacking:
            if service.systems is not None:  # named by the service: it must run there
                spec = c.catalog.hardware_system(system)
                c.add(
                    (*path, "precision"),
                    f"{service.precision.upper()} asked of {system} ({spec.chip}), which has no "
                    f"{service.precision.upper()} peak; it has "
                    f"{', '.join(p for p in ('fp4', 'fp8', 'bf16', 'int8') if spec.supports(p))}",
                )
        if lacking and service.systems is None:
            usable = [s for s in systems if s not in lacking]
            c.add(
                (*path, "precision"),
                f"{service.precision.upper()} is not on {', '.join(lacking)}: "
                + (f"{name} runs only on {', '.join(usable)}" if usable else "no system can serve it"),
                warning=bool(usable),
            )
        if lacking or not service.modelled or service_model(name, service, c.catalog) is None:
            continue
        if token_means(c.scenario, name) is None:
            continue  # a token-length table that could not be read is reported by the loader
        _limits_and_memory(c, name, systems)


def _limits_and_memory(c: Checker, name: str, systems: list[str]) -> None:
    """Systems on which no instance of the service's model fits HBM or meets its limits."""
    if not systems:
        return
    rates = service_rates(c.scenario, c.catalog, systems)
    failed = {
        system: estimate.reason
        for (service, system), estimate in rates.estimates.items()
        if service == name and not estimate.feasible
    }
    if not failed:
        return
    service = c.scenario.inference[name]
    limits = ", ".join(
        f"{label} {value:g} ms"
        for label, value in (("TTFT", service.ttft), ("TPOT", service.tpot))
        if value is not None
    )
    detail = "; ".join(f"{system}: {reason}" for system, reason in failed.items())
    usable = [s for s in systems if s not in failed]
    if usable:
        c.add(
            ("inference", name),
            f"left out of {', '.join(failed)} ({detail}); served on {', '.join(usable)}",
            warning=True,
        )
    else:
        c.add(
            ("inference", name),
            f"no allowed system can serve it{f' within {limits}' if limits else ''}: {detail}",
        )
