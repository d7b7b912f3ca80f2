/**
 * One HTTP exchange over a raw socket to a listening test server: the bytes sent exactly as given
 * (request lines and targets no HTTP client would write), everything the server answers until it
 * closes the connection, bounded by 5 s.
 */
import net from 'node:net';

export function rawExchange(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 5 s; got: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
    }, 5000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(bytes);
  });
}
