// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by the Service tests: the sample's observations, a tiny document, a running in-process Service.
#pragma once

#include "importers/analyzer.h"
#include "service/core/observation_document.h"
#include "service/http_service.h"
#include "tests/common/test_catalog.h"

#include <QTest>

#include <memory>

namespace attrib::tests {

/// The nvlink sample analysed locally and exported as the Service's input.
inline service::ObservationDocument sampleDocument(const std::string& sample = "nvlink-xid149")
{
    const auto outcome = importers::analyzeBundle(samplePath(sample), sourceCatalog());
    if (!outcome.result)
        throw std::runtime_error("cannot analyse the sample: " + outcome.error);
    return service::exportObservations(*outcome.result);
}

/// Two kernel lines of one node: a quick attribution.
inline const char* tinyDocument()
{
    return "{\"context\": {\"id\": \"tiny-1\", \"scheduler\": \"slurm\", \"nodes\": [\"n1\", \"n2\"]}}\n"
           "{\"source\": \"kernel\", \"node\": \"n2\", \"time\": \"2026-04-22T21:34:20Z\", "
           "\"text\": \"NVRM: Xid (PCI:0000:9d:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the "
           "bus.\"}\n"
           "{\"source\": \"app\", \"node\": \"n1\", \"rank\": 0, \"time\": \"2026-04-22T21:35:00Z\", "
           "\"text\": \"RuntimeError: NCCL communicator was aborted on rank 0.\"}\n";
}

inline std::unique_ptr<service::Service> startService(service::ServiceConfig config,
                                                      std::shared_ptr<service::StorePool> store = nullptr)
{
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    auto s = std::make_unique<service::Service>(config, sourceCatalog(), std::move(store));
    QString error;
    if (!s->listen(&error))
        throw std::runtime_error("cannot listen: " + error.toStdString());
    return s;
}

}  // namespace attrib::tests
