from svc.core.logger import configure_logger

configure_logger()
