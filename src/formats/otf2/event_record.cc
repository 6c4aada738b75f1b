#include "formats/otf2/event_record.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace macroscope::otf2 {

namespace {

// The name of a record kind as a template argument, so that one function
// template serves every record kind that becomes a punctual event.
template <size_t N>
struct KindName {
  char text[N];
  constexpr KindName(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT: implicit on purpose
};

// The record's attribute list, copied out of the library's (a list lives
// for one callback); entries the library cannot give are skipped.
std::span<const RawAttribute> Unpack(OTF2_AttributeList* attributes) {
  thread_local std::vector<RawAttribute> unpacked;  // one per decoding thread
  unpacked.clear();
  if (attributes == nullptr) return {};
  uint32_t count = OTF2_AttributeList_GetNumberOfElements(attributes);
  for (uint32_t i = 0; i < count; ++i) {
    RawAttribute a;
    if (OTF2_AttributeList_GetAttributeByIndex(attributes, i, &a.ref, &a.type, &a.value) == OTF2_SUCCESS)
      unpacked.push_back(a);
  }
  return unpacked;
}

OTF2_CallbackCode Hand(void* user, EventRecord& r, OTF2_AttributeList* attributes) {
  r.attributes = Unpack(attributes);
  return static_cast<RecordSink*>(user)->Take(r);
}

template <KindName kKind, class... Rest>
OTF2_CallbackCode Punctual(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                           OTF2_AttributeList* attributes, Rest...) {
  EventRecord r{.kind = EventRecord::Kind::kPunctual, .location = location, .time = time, .name = kKind.text};
  return Hand(user, r, attributes);
}

OTF2_CallbackCode ProgramBegin(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                               OTF2_AttributeList* attributes, OTF2_StringRef program, uint32_t,
                               const OTF2_StringRef*) {
  EventRecord r{.kind = EventRecord::Kind::kProgramBegin, .location = location, .time = time, .ref = program};
  return Hand(user, r, attributes);
}

OTF2_CallbackCode Enter(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                        OTF2_AttributeList* attributes, OTF2_RegionRef region) {
  EventRecord r{.kind = EventRecord::Kind::kEnter, .location = location, .time = time, .ref = region};
  return Hand(user, r, attributes);
}

OTF2_CallbackCode Leave(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                        OTF2_AttributeList* attributes, OTF2_RegionRef) {
  EventRecord r{.kind = EventRecord::Kind::kLeave, .location = location, .time = time};
  return Hand(user, r, attributes);
}

template <KindName kKind, bool kSend, class... Rest>
OTF2_CallbackCode Message(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                          OTF2_AttributeList* attributes, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                          uint64_t length, Rest...) {
  EventRecord r{.kind = EventRecord::Kind::kMessage,
                .location = location,
                .time = time,
                .name = kKind.text,
                .send = kSend,
                .peer = peer,
                .comm = comm,
                .tag = tag,
                .length = length};
  return Hand(user, r, attributes);
}

OTF2_CallbackCode Metric(OTF2_LocationRef location, OTF2_TimeStamp time, void* user,
                         OTF2_AttributeList* attributes, OTF2_MetricRef metric, uint8_t count,
                         const OTF2_Type* types, const OTF2_MetricValue* values) {
  EventRecord r{.kind = EventRecord::Kind::kMetric,
                .location = location,
                .time = time,
                .ref = metric,
                .metric_types = {types, count},
                .metric_values = {values, count}};
  return Hand(user, r, attributes);
}

}  // namespace

void RegisterRecordCallbacks(OTF2_GlobalEvtReaderCallbacks* c) {
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(c, &Enter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(c, &Leave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(c, &Message<"MPI_SEND", true>);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(c, &Message<"MPI_ISEND", true, uint64_t>);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(c, &Message<"MPI_RECV", false>);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(c, &Message<"MPI_IRECV", false, uint64_t>);
  OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(c, &Metric);
  OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(c, &ProgramBegin);
  // Every other record kind: a punctual event named as otf2-print names it.
#define MACROSCOPE_OTF2_PUNCTUAL(Setter, kind) \
  OTF2_GlobalEvtReaderCallbacks_Set##Setter##Callback(c, &Punctual<kind>)
  MACROSCOPE_OTF2_PUNCTUAL(Unknown, "UNKNOWN");
  MACROSCOPE_OTF2_PUNCTUAL(BufferFlush, "BUFFER_FLUSH");
  MACROSCOPE_OTF2_PUNCTUAL(MeasurementOnOff, "MEASUREMENT_ON_OFF");
  MACROSCOPE_OTF2_PUNCTUAL(MpiIsendComplete, "MPI_ISEND_COMPLETE");
  MACROSCOPE_OTF2_PUNCTUAL(MpiIrecvRequest, "MPI_IRECV_REQUEST");
  MACROSCOPE_OTF2_PUNCTUAL(MpiRequestTest, "MPI_REQUEST_TEST");
  MACROSCOPE_OTF2_PUNCTUAL(MpiRequestCancelled, "MPI_REQUEST_CANCELLED");
  MACROSCOPE_OTF2_PUNCTUAL(MpiCollectiveBegin, "MPI_COLLECTIVE_BEGIN");
  MACROSCOPE_OTF2_PUNCTUAL(MpiCollectiveEnd, "MPI_COLLECTIVE_END");
  MACROSCOPE_OTF2_PUNCTUAL(OmpFork, "OMP_FORK");
  MACROSCOPE_OTF2_PUNCTUAL(OmpJoin, "OMP_JOIN");
  MACROSCOPE_OTF2_PUNCTUAL(OmpAcquireLock, "OMP_ACQUIRE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(OmpReleaseLock, "OMP_RELEASE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(OmpTaskCreate, "OMP_TASK_CREATE");
  MACROSCOPE_OTF2_PUNCTUAL(OmpTaskSwitch, "OMP_TASK_SWITCH");
  MACROSCOPE_OTF2_PUNCTUAL(OmpTaskComplete, "OMP_TASK_COMPLETE");
  MACROSCOPE_OTF2_PUNCTUAL(ParameterString, "PARAMETER_STRING");
  MACROSCOPE_OTF2_PUNCTUAL(ParameterInt, "PARAMETER_INT");
  MACROSCOPE_OTF2_PUNCTUAL(ParameterUnsignedInt, "PARAMETER_UNSIGNED_INT");
  MACROSCOPE_OTF2_PUNCTUAL(RmaWinCreate, "RMA_WIN_CREATE");
  MACROSCOPE_OTF2_PUNCTUAL(RmaWinDestroy, "RMA_WIN_DESTROY");
  MACROSCOPE_OTF2_PUNCTUAL(RmaCollectiveBegin, "RMA_COLLECTIVE_BEGIN");
  MACROSCOPE_OTF2_PUNCTUAL(RmaCollectiveEnd, "RMA_COLLECTIVE_END");
  MACROSCOPE_OTF2_PUNCTUAL(RmaGroupSync, "RMA_GROUP_SYNC");
  MACROSCOPE_OTF2_PUNCTUAL(RmaRequestLock, "RMA_REQUEST_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(RmaAcquireLock, "RMA_ACQUIRE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(RmaTryLock, "RMA_TRY_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(RmaReleaseLock, "RMA_RELEASE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(RmaSync, "RMA_SYNC");
  MACROSCOPE_OTF2_PUNCTUAL(RmaWaitChange, "RMA_WAIT_CHANGE");
  MACROSCOPE_OTF2_PUNCTUAL(RmaPut, "RMA_PUT");
  MACROSCOPE_OTF2_PUNCTUAL(RmaGet, "RMA_GET");
  MACROSCOPE_OTF2_PUNCTUAL(RmaAtomic, "RMA_ATOMIC");
  MACROSCOPE_OTF2_PUNCTUAL(RmaOpCompleteBlocking, "RMA_OP_COMPLETE_BLOCKING");
  MACROSCOPE_OTF2_PUNCTUAL(RmaOpCompleteNonBlocking, "RMA_OP_COMPLETE_NON_BLOCKING");
  MACROSCOPE_OTF2_PUNCTUAL(RmaOpTest, "RMA_OP_TEST");
  MACROSCOPE_OTF2_PUNCTUAL(RmaOpCompleteRemote, "RMA_OP_COMPLETE_REMOTE");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadFork, "THREAD_FORK");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadJoin, "THREAD_JOIN");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadTeamBegin, "THREAD_TEAM_BEGIN");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadTeamEnd, "THREAD_TEAM_END");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadAcquireLock, "THREAD_ACQUIRE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadReleaseLock, "THREAD_RELEASE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadTaskCreate, "THREAD_TASK_CREATE");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadTaskSwitch, "THREAD_TASK_SWITCH");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadTaskComplete, "THREAD_TASK_COMPLETE");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadCreate, "THREAD_CREATE");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadBegin, "THREAD_BEGIN");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadWait, "THREAD_WAIT");
  MACROSCOPE_OTF2_PUNCTUAL(ThreadEnd, "THREAD_END");
  MACROSCOPE_OTF2_PUNCTUAL(CallingContextEnter, "CALLING_CONTEXT_ENTER");
  MACROSCOPE_OTF2_PUNCTUAL(CallingContextLeave, "CALLING_CONTEXT_LEAVE");
  MACROSCOPE_OTF2_PUNCTUAL(CallingContextSample, "CALLING_CONTEXT_SAMPLE");
  MACROSCOPE_OTF2_PUNCTUAL(IoCreateHandle, "IO_CREATE_HANDLE");
  MACROSCOPE_OTF2_PUNCTUAL(IoDestroyHandle, "IO_DESTROY_HANDLE");
  MACROSCOPE_OTF2_PUNCTUAL(IoDuplicateHandle, "IO_DUPLICATE_HANDLE");
  MACROSCOPE_OTF2_PUNCTUAL(IoSeek, "IO_SEEK");
  MACROSCOPE_OTF2_PUNCTUAL(IoChangeStatusFlags, "IO_CHANGE_STATUS_FLAGS");
  MACROSCOPE_OTF2_PUNCTUAL(IoDeleteFile, "IO_DELETE_FILE");
  MACROSCOPE_OTF2_PUNCTUAL(IoOperationBegin, "IO_OPERATION_BEGIN");
  MACROSCOPE_OTF2_PUNCTUAL(IoOperationTest, "IO_OPERATION_TEST");
  MACROSCOPE_OTF2_PUNCTUAL(IoOperationIssued, "IO_OPERATION_ISSUED");
  MACROSCOPE_OTF2_PUNCTUAL(IoOperationComplete, "IO_OPERATION_COMPLETE");
  MACROSCOPE_OTF2_PUNCTUAL(IoOperationCancelled, "IO_OPERATION_CANCELLED");
  MACROSCOPE_OTF2_PUNCTUAL(IoAcquireLock, "IO_ACQUIRE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(IoReleaseLock, "IO_RELEASE_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(IoTryLock, "IO_TRY_LOCK");
  MACROSCOPE_OTF2_PUNCTUAL(ProgramEnd, "PROGRAM_END");
  MACROSCOPE_OTF2_PUNCTUAL(NonBlockingCollectiveRequest, "NON_BLOCKING_COLLECTIVE_REQUEST");
  MACROSCOPE_OTF2_PUNCTUAL(NonBlockingCollectiveComplete, "NON_BLOCKING_COLLECTIVE_COMPLETE");
  MACROSCOPE_OTF2_PUNCTUAL(CommCreate, "COMM_CREATE");
  MACROSCOPE_OTF2_PUNCTUAL(CommDestroy, "COMM_DESTROY");
#undef MACROSCOPE_OTF2_PUNCTUAL
}

}  // namespace macroscope::otf2
