/**
 * How the RabbitMQ destination's frames reach the socket. amqplib 2.x queues every published
 * message as one chunk and its writer (the connection's "muxer") hands each chunk to the socket
 * on its own: a write, and a system call, per message.
 */
import type { ChannelModel } from 'amqplib';

interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * Corks the socket for each round of that writer, so a round's messages leave with one writev
 * (1,000 messages: about 20 socket writes instead of 1,000); what is written and in which order
 * stay the same. Only where the writer has the expected shape (connection.muxer with out and
 * _readIncoming); returns whether it did, and test/sync/rabbitmq.test.ts fails if it does not.
 */
export function corkEachWriteRound(model: ChannelModel): boolean {
  const mux = (model as unknown as { connection?: { muxer?: { out?: Partial<Corkable>; _readIncoming?: () => void } } }).connection?.muxer;
  const out = mux?.out;
  if (!mux || typeof mux._readIncoming !== 'function' || typeof out?.cork !== 'function' || typeof out.uncork !== 'function') return false;
  const socket = out as Corkable;
  const round = mux._readIncoming.bind(mux);
  mux._readIncoming = () => {
    socket.cork();
    try {
      round();
    } finally {
      socket.uncork();
    }
  };
  return true;
}
